/**
 * CUSIPs numbered in the order first seen, for columns indexed by number. A quarter's security
 * totals and daily crowding share one numbering, so a position costs one lookup shared by both
 * instead of one in each (millions of positions a quarter); the changes pass numbers every CUSIP of
 * the portfolios it compares.
 *
 * A CUSIP is nine characters of ALPHABET, so it is looked up as one integer below 39⁹ (< 2⁵³:
 * exact), read straight from the packed bytes or the text it sits in: no string is cut out and none
 * hashed (~3× faster than a map keyed by the CUSIP text). The codes sit in an open-addressing table
 * of typed arrays (CodeTable), not a Map: codes above 2³¹ are heap numbers to a Map, and a lookup
 * took ~44 ns against ~17 ns (40 million lookups over 30,000 codes, Node 24); a quarter of the demo
 * makes ~15 million. Anything else (a key outside the alphabet) is looked up by its text.
 *
 * The alphabet is in character-code order, so codes order as the texts do: a filing's positions
 * are put in CUSIP order by sorting numbers (filing-positions.ts).
 */
import { writeKey } from '../../../../../holdings/change-pack.js';
import { doubled } from '../../../../../typed-arrays.js';

const ALPHABET = '#*0123456789@ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const BASE = ALPHABET.length;
const LENGTH = 9;
/** A character code's digit in ALPHABET, −1 for any other. */
const DIGIT = (() => {
  const digit = new Int8Array(256).fill(-1);
  for (let d = 0; d < BASE; d++) digit[ALPHABET.charCodeAt(d)] = d;
  return digit;
})();

/** A character code's digit, −1 outside the alphabet. */
const digitOf = (c: number) => (c < 256 ? (DIGIT[c] as number) : -1);

/** The code of the nine characters of `text` from `at`; −1 if one is outside the alphabet. */
function codeOfText(text: string, at: number): number {
  let code = 0;
  for (let k = 0; k < LENGTH; k++) {
    const digit = digitOf(text.charCodeAt(at + k));
    if (digit < 0) return -1;
    code = code * BASE + digit;
  }
  return code;
}

/** codeOfText for nine bytes. */
function codeOfBytes(bytes: Uint8Array, at: number): number {
  let code = 0;
  for (let k = 0; k < LENGTH; k++) {
    const digit = digitOf(bytes[at + k] as number);
    if (digit < 0) return -1;
    code = code * BASE + digit;
  }
  return code;
}

const latin1 = (bytes: Uint8Array, at: number) =>
  Buffer.from(bytes.buffer, bytes.byteOffset + at, LENGTH).toString('latin1');

/** An empty slot of CodeTable: no code is negative. */
const EMPTY = -1;

/**
 * A code's 32-bit hash: its low and high 32 bits mixed (multiplicative hashing, then a shift so
 * that the high bits reach the low ones a mask keeps). Exported for its test of the spread.
 */
export function codeHash(code: number): number {
  const hash = Math.imul((code >>> 0) ^ Math.imul((code / 0x100000000) | 0, 0x9e3779b1), 0x85ebca6b);
  return hash ^ (hash >>> 15);
}

/**
 * Codes (integers in [0, 2⁵³)) to numbers, by linear probing in typed arrays kept at most half full.
 * Only what CusipNumbers needs: lookup and insertion of a code not yet present.
 */
class CodeTable {
  private codes = new Float64Array(1024).fill(EMPTY);
  private values = new Int32Array(1024);
  private size = 0;

  /** The value of `code` (≥ 0), −1 if it has none. */
  get(code: number): number {
    const slot = this.slotOf(code);
    return this.codes[slot] === code ? (this.values[slot] as number) : -1;
  }

  /** Adds a code (≥ 0) that is not in the table. */
  add(code: number, value: number): void {
    if (2 * (this.size + 1) > this.codes.length) this.grow();
    const slot = this.slotOf(code);
    this.codes[slot] = code;
    this.values[slot] = value;
    this.size++;
  }

  /** The code's slot, or the empty slot where it would go. */
  private slotOf(code: number): number {
    const mask = this.codes.length - 1;
    let slot = codeHash(code) & mask;
    for (let seen = this.codes[slot]; seen !== code && seen !== EMPTY; seen = this.codes[slot])
      slot = (slot + 1) & mask;
    return slot;
  }

  private grow(): void {
    const { codes, values } = this;
    this.codes = new Float64Array(codes.length * 2).fill(EMPTY);
    this.values = new Int32Array(codes.length * 2);
    this.size = 0;
    for (let slot = 0; slot < codes.length; slot++)
      if (codes[slot] !== EMPTY) this.add(codes[slot] as number, values[slot] as number);
  }
}

export class CusipNumbers {
  private readonly byCode = new CodeTable();
  private readonly byText = new Map<string, number>();
  /** `cusips[n]` is CUSIP number n. */
  readonly cusips: string[] = [];
  /** `codes[n]` is CUSIP number n's code, −1 for one outside the alphabet. */
  private readonly codes: number[] = [];
  /** CUSIP number n's characters from LENGTH × n, for one in the alphabet (ASCII). */
  private bytes = new Uint8Array(LENGTH * 1024);

  /** The CUSIP's number, given it on first sight. */
  numberOf(cusip: string): number {
    const code = cusip.length === LENGTH ? codeOfText(cusip, 0) : -1;
    if (code < 0) return this.numberOfText(cusip);
    const n = this.byCode.get(code);
    return n >= 0 ? n : this.add(code, cusip);
  }

  /** numberOf the nine characters of `text` from `at` (CUSIPs written back to back). */
  numberIn(text: string, at: number): number {
    const code = codeOfText(text, at);
    if (code < 0) return this.numberOfText(text.slice(at, at + LENGTH));
    const n = this.byCode.get(code);
    return n >= 0 ? n : this.add(code, text.slice(at, at + LENGTH));
  }

  /** numberOf the nine ASCII bytes from `at` (a packed key). */
  numberAt(bytes: Uint8Array, at: number): number {
    const code = codeOfBytes(bytes, at);
    if (code < 0) return this.numberOfText(latin1(bytes, at));
    const n = this.byCode.get(code);
    return n >= 0 ? n : this.add(code, latin1(bytes, at));
  }

  /** The CUSIP's number if it has one. */
  find(cusip: string): number | undefined {
    const code = cusip.length === LENGTH ? codeOfText(cusip, 0) : -1;
    if (code < 0) return this.byText.get(cusip);
    const n = this.byCode.get(code);
    return n >= 0 ? n : undefined;
  }

  /** find for the nine ASCII bytes from `at`, cutting no string out of them when they are a CUSIP. */
  findAt(bytes: Uint8Array, at: number): number | undefined {
    const code = codeOfBytes(bytes, at);
    if (code < 0) return this.byText.get(latin1(bytes, at));
    const n = this.byCode.get(code);
    return n >= 0 ? n : undefined;
  }

  /** CUSIP number n's code (its texts' order), −1 for a CUSIP outside the alphabet. */
  codeOf(n: number): number {
    return this.codes[n] as number;
  }

  /** The number of the CUSIP whose code is `code` (codeOf), −1 if none. */
  numberOfCode(code: number): number {
    return this.byCode.get(code);
  }

  /**
   * Writes CUSIP number n's nine characters into `into` from `at`, as writeKey writes its text
   * (millions of packed changes a quarter: bytes copied, not a string encoded for each).
   */
  writeCusip(n: number, into: Buffer, at: number): void {
    if ((this.codes[n] as number) < 0) {
      writeKey(this.cusips[n] as string, LENGTH, into, at);
      return;
    }
    const { bytes } = this;
    for (let k = 0, from = LENGTH * n; k < LENGTH; k++) into[at + k] = bytes[from + k] as number;
  }

  private add(code: number, cusip: string): number {
    const n = this.cusips.length;
    this.byCode.add(code, n);
    this.cusips.push(cusip);
    this.codes.push(code);
    // Numbers of keys outside the alphabet have no bytes here, so n may be past twice the length.
    while (LENGTH * (n + 1) > this.bytes.length) this.bytes = doubled(this.bytes);
    for (let k = 0; k < LENGTH; k++) this.bytes[LENGTH * n + k] = cusip.charCodeAt(k);
    return n;
  }

  private numberOfText(cusip: string): number {
    let n = this.byText.get(cusip);
    if (n === undefined) {
      n = this.cusips.length;
      this.byText.set(cusip, n);
      this.cusips.push(cusip);
      this.codes.push(-1);
    }
    return n;
  }
}
