/**
 * A JSON document written into one Buffer piece by piece, for answers that run to megabytes (a whole
 * portfolio, an overlap). Building every record and serialising the whole answer with
 * JSON.stringify made one multi-megabyte string (and a graph of tens of thousands of objects) per
 * request; V8 keeps such strings in its large-object space, freed only by full collections, so at 10
 * concurrent requests the heap grew by hundreds of MB between them. Here records are written byte by
 * byte from pre-encoded pieces and numbers (`raw`, `range`, `scaled`, `number`: no string or object
 * per record), into a Buffer that lives outside the JavaScript heap and is freed with the response;
 * writing the numbers this way also costs less than JSON.stringify's conversion of each double.
 *
 * Numbers: `scaled(count, d)` writes count / 10^d exactly as JSON.stringify writes that number, the
 * digits of an integer with a point put in: the API rounds money and weights to a fixed number of
 * decimals (`Math.round(x * 10^d) / 10^d`), and for |count| < 10^15 such a number's shortest
 * round-trip form (what JavaScript prints) is that decimal, trailing zeros dropped, since two
 * decimals of at most 15 significant digits never round to the same double (and up to 6 decimals,
 * JavaScript writes no exponent). Anything else goes
 * through JSON.stringify. A property test compares the two (test/unit/json-buffer.test.ts).
 */
import type { FastifyReply } from 'fastify';
import { returnBuffer, takeBuffer } from './buffer-pool.js';

/** Powers of ten as exact doubles, by exponent. */
const POW10 = Array.from({ length: 16 }, (_, i) => 10 ** i);
/** JavaScript writes numbers below 10^-6 with an exponent: more decimals take JSON.stringify. */
const MAX_DECIMALS = 6;
/** |count| below this: the digits are the shortest form (see above). */
const EXACT_DIGITS = 1e15;
const MINUS = 0x2d;
const POINT = 0x2e;
const ZERO = 0x30;

export class JsonBuffer {
  private buffer: Buffer;
  private length = 0;
  /** Digits of an integer, written backwards. */
  private readonly digits = new Uint8Array(24);

  constructor(expectedBytes = 64 * 1024) {
    this.buffer = takeBuffer(expectedBytes);
  }

  private ensure(bytes: number): void {
    const room = this.length + bytes;
    if (room <= this.buffer.length) return;
    const grown = takeBuffer(Math.max(this.buffer.length * 2, room));
    this.buffer.copy(grown, 0, 0, this.length);
    returnBuffer(this.buffer);
    this.buffer = grown;
  }

  /** Appends JSON text as it is. */
  text(text: string): this {
    this.ensure(text.length * 3);
    this.length += this.buffer.write(text, this.length);
    return this;
  }

  /** Appends bytes of JSON text (UTF-8) as they are. */
  raw(bytes: Uint8Array): this {
    this.ensure(bytes.length);
    this.buffer.set(bytes, this.length);
    this.length += bytes.length;
    return this;
  }

  /** Bytes start…end of `source` (UTF-8 JSON text), without a view of them in between. */
  range(source: Buffer, start: number, end: number): this {
    this.ensure(end - start);
    this.length += source.copy(this.buffer, this.length, start, end);
    return this;
  }

  /** One ASCII character, by its code. */
  char(code: number): this {
    this.ensure(1);
    this.buffer[this.length++] = code;
    return this;
  }

  /** count / 10^decimals as JSON.stringify writes it (count an integer, as Math.round gives). */
  scaled(count: number, decimals: number): this {
    if (
      !(count > -EXACT_DIGITS && count < EXACT_DIGITS) ||
      !Number.isInteger(count) ||
      decimals > MAX_DECIMALS
    )
      return this.text(JSON.stringify(count / 10 ** decimals));
    this.ensure(24);
    const out = this.buffer;
    let at = this.length;
    if (count === 0) {
      out[at] = ZERO; // also -0, which JSON.stringify writes as 0
      this.length = at + 1;
      return this;
    }
    if (count < 0) {
      out[at++] = MINUS;
      count = -count;
    }
    const unit = POW10[decimals] as number;
    const whole = Math.floor(count / unit);
    let fraction = count - whole * unit;
    at = this.writeDigits(whole, at);
    if (fraction !== 0) {
      let places = decimals;
      while (fraction % 10 === 0) {
        fraction /= 10;
        places--;
      }
      out[at++] = POINT;
      // Leading zeros of the fraction (0.05 → "05"), then its digits.
      for (let width = this.countDigits(fraction); width < places; width++) out[at++] = ZERO;
      at = this.writeDigits(fraction, at);
    }
    this.length = at;
    return this;
  }

  /** Any number as JSON.stringify writes it; integers without a string in between. */
  number(value: number): this {
    return this.scaled(value, 0);
  }

  private countDigits(n: number): number {
    let count = 1;
    while (n >= 10) {
      n = Math.floor(n / 10);
      count++;
    }
    return count;
  }

  /** The decimal digits of a non-negative integer at `at`; returns the position after them. */
  private writeDigits(n: number, at: number): number {
    const digits = this.digits;
    let count = 0;
    do {
      const next = Math.floor(n / 10);
      digits[count++] = ZERO + (n - next * 10);
      n = next;
    } while (n > 0);
    const out = this.buffer;
    while (count > 0) out[at++] = digits[--count] as number;
    return at;
  }

  /** `{…head, "<name>": ` : an object's members so far, ready for its last member's value. */
  openMember(head: object, name: string): this {
    const members = JSON.stringify(head);
    return this.text(`${members.length > 2 ? `${members.slice(0, -1)},` : '{'}${JSON.stringify(name)}:`);
  }

  /** The document's bytes. */
  bytes(): Buffer {
    return this.buffer.subarray(0, this.length);
  }

  /** Hands the memory back to the pool (buffer-pool.ts): the document must not be read again. */
  release(): void {
    returnBuffer(this.buffer);
  }
}

/**
 * Sends a document a handler wrote (a Buffer with a JSON type is sent as it is); its memory goes back
 * to the pool once the response has been handed to the socket in full (an aborted response's is left
 * to the garbage collector; the response cache stores a copy).
 */
export function sendJson(reply: FastifyReply, json: JsonBuffer): FastifyReply {
  reply.raw.once('finish', () => json.release());
  return reply.type('application/json; charset=utf-8').send(json.bytes());
}
