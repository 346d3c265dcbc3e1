/**
 * CUSIPs numbered in the order first seen, for columns indexed by number. A quarter's security
 * totals and daily crowding share one numbering, so a position costs one lookup shared by both
 * instead of one in each (millions of positions a quarter); the changes pass numbers every CUSIP of
 * the portfolios it compares.
 *
 * A CUSIP is nine characters of ALPHABET, so it is looked up as one integer below 39⁹ (< 2⁵³:
 * exact), read straight from the packed bytes or the text it sits in: no string is cut out and none
 * hashed (~3× faster than a map keyed by the CUSIP text). Anything else (a key outside the
 * alphabet) is looked up by its text.
 */
const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ*@#';
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

export class CusipNumbers {
  private readonly byCode = new Map<number, number>();
  private readonly byText = new Map<string, number>();
  /** `cusips[n]` is CUSIP number n. */
  readonly cusips: string[] = [];

  /** The CUSIP's number, given it on first sight. */
  numberOf(cusip: string): number {
    const code = cusip.length === LENGTH ? codeOfText(cusip, 0) : -1;
    if (code < 0) return this.numberOfText(cusip);
    return this.byCode.get(code) ?? this.add(code, cusip);
  }

  /** numberOf the nine characters of `text` from `at` (CUSIPs written back to back). */
  numberIn(text: string, at: number): number {
    const code = codeOfText(text, at);
    if (code < 0) return this.numberOfText(text.slice(at, at + LENGTH));
    return this.byCode.get(code) ?? this.add(code, text.slice(at, at + LENGTH));
  }

  /** numberOf the nine ASCII bytes from `at` (a packed key). */
  numberAt(bytes: Uint8Array, at: number): number {
    const code = codeOfBytes(bytes, at);
    if (code < 0) return this.numberOfText(latin1(bytes, at));
    return this.byCode.get(code) ?? this.add(code, latin1(bytes, at));
  }

  /** The CUSIP's number if it has one. */
  find(cusip: string): number | undefined {
    const code = cusip.length === LENGTH ? codeOfText(cusip, 0) : -1;
    return code < 0 ? this.byText.get(cusip) : this.byCode.get(code);
  }

  private add(code: number, cusip: string): number {
    const n = this.cusips.length;
    this.byCode.set(code, n);
    this.cusips.push(cusip);
    return n;
  }

  private numberOfText(cusip: string): number {
    let n = this.byText.get(cusip);
    if (n === undefined) {
      n = this.cusips.length;
      this.byText.set(cusip, n);
      this.cusips.push(cusip);
    }
    return n;
  }
}
