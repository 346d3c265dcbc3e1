/**
 * The UTF-8 bytes of texts already noted, per CUSIP number and kind (issuer, class): the greatest
 * and the last other one seen. Noting a name again changes nothing (the greatest only grows), so a
 * row whose names are among these is skipped without decoding them (UnknownSecurities).
 *
 * Hot (every row of a load), and a lookup per row at a random CUSIP number: the texts sit in one
 * pool of bytes and their places in one Int32Array, eight entries a number, so a row costs a few
 * cache misses, where an object and a typed array per text cost about ten (measured: ~1.6 µs a row).
 */
import { doubled } from '../../../../../typed-arrays.js';

/** A place's length when nothing is kept there (−1 is a null text). */
const NONE = -2;
/** Entries per number: (start, length) for issuer greatest, issuer other, class greatest, class other. */
const STRIDE = 8;

export const ISSUER = 0;
export const TITLE = 1;

export class NotedTexts {
  private pool = new Uint8Array(1 << 16);
  private used = 0;
  private places = new Int32Array(1024 * STRIDE).fill(NONE);

  /** Whether the text of `length` bytes at `at` in `texts` (−1: null) is kept for (n, kind). */
  has(n: number, kind: number, texts: Uint8Array, at: number, length: number): boolean {
    const place = n * STRIDE + kind * 4;
    if (place >= this.places.length) return false;
    return this.equals(place, texts, at, length) || this.equals(place + 2, texts, at, length);
  }

  /** Keeps a text just noted for (n, kind): as the greatest, or as the other. */
  keep(n: number, kind: number, texts: Uint8Array, at: number, length: number, greatest: boolean): void {
    while (n * STRIDE >= this.places.length) {
      const grown = doubled(this.places);
      grown.fill(NONE, this.places.length);
      this.places = grown;
    }
    const place = n * STRIDE + kind * 4 + (greatest ? 0 : 2);
    const kept = this.places[place + 1] as number;
    this.places[place + 1] = length;
    if (length <= 0) return;
    // A text no longer than the one it replaces takes its bytes' place; a longer one goes at the end.
    if (length > kept) {
      while (this.used + length > this.pool.length) this.pool = doubled(this.pool);
      this.places[place] = this.used;
      this.used += length;
    }
    const start = this.places[place] as number;
    for (let k = 0; k < length; k++) this.pool[start + k] = texts[at + k] as number;
  }

  private equals(place: number, texts: Uint8Array, at: number, length: number): boolean {
    const kept = this.places[place + 1] as number;
    if (kept !== length) return false;
    const { pool } = this;
    const start = this.places[place] as number;
    for (let k = 0; k < length; k++) if (pool[start + k] !== texts[at + k]) return false;
    return true;
  }
}
