/**
 * One filing's rows summed into positions, one per (CUSIP, share type × put/call code), in typed
 * arrays reused from filing to filing: a load sums millions of rows this way, and a Map of position
 * objects keyed by CUSIP text cost a string hash per row and an object per position.
 *
 * The sums are PositionSums' (derive/positions.ts): dollars and shares added in row order, so the
 * same doubles; the positions come out in its order, (CUSIP, share type, put/call) as texts, and
 * with its values (thousands of USD, the dollars divided by 1000 once summed).
 * test/ingest/sec-13f-summed.test.ts compares every table derived from these sums with a full
 * re-derivation through PositionSums.
 */
import { CODE_RANK } from '../../../../holdings/portfolio-pack.js';
import { doubled } from '../../../../typed-arrays.js';
import type { CusipNumbers } from './derive/cusip-numbers.js';

/** codeOf's codes (share type × put/call): 0–5. */
const CODES = 6;
/**
 * Each code's rank in PositionSums' order: share type `PRN` before `SH`, then put/call null before
 * `CALL` before `PUT`, as texts sort.
 */
const RANK = CODE_RANK;
/** The code of each rank. */
const CODE_OF_RANK = Int8Array.from({ length: CODES }, (_, rank) => RANK.indexOf(rank));

export class FilingPositions {
  /** (CUSIP number × CODES + code) → slot + 1, 0 for none in this filing. */
  private slotOf = new Int32Array(1024 * CODES);
  /** Per slot: its key (as slotOf's index), dollars and shares. */
  private keys = new Int32Array(1024);
  private dollars = new Float64Array(1024);
  private shares = new Float64Array(1024);
  private count = 0;

  /** A row of CUSIP number `n` and code `code`, its VALUE in dollars. */
  add(n: number, code: number, dollars: number, shares: number): void {
    const key = n * CODES + code;
    while (key >= this.slotOf.length) this.slotOf = doubled(this.slotOf);
    const slot = (this.slotOf[key] as number) - 1;
    if (slot >= 0) {
      this.dollars[slot] = (this.dollars[slot] as number) + dollars;
      this.shares[slot] = (this.shares[slot] as number) + shares;
      return;
    }
    if (this.count === this.keys.length) {
      this.keys = doubled(this.keys);
      this.dollars = doubled(this.dollars);
      this.shares = doubled(this.shares);
    }
    const added = this.count++;
    this.slotOf[key] = added + 1;
    this.keys[added] = key;
    this.dollars[added] = dollars;
    this.shares[added] = shares;
  }

  /**
   * Hands each position to `take` in order, value in thousands of USD, and starts the next filing.
   * `numbers` numbered the CUSIPs added.
   */
  drain(
    numbers: CusipNumbers,
    take: (cusip: string, code: number, value: number, shares: number) => void,
  ): void {
    for (const slot of this.ordered(numbers)) {
      const key = this.keys[slot] as number;
      // biome-ignore format: one position
      take(numbers.cusips[(key / CODES) | 0] as string, key % CODES, (this.dollars[slot] as number) / 1000,
        this.shares[slot] as number);
      this.slotOf[key] = 0;
    }
    this.count = 0;
  }

  /**
   * The slots in PositionSums' order. A CUSIP's code orders as its text (CusipNumbers), so each
   * position sorts as one number, code × CODES + rank, by the typed array's own numeric sort
   * (< 39⁹ × 6 < 2⁵³: exact), and is found again through its code. A filing holding a CUSIP outside
   * the alphabet (no code) is sorted by comparing texts.
   */
  private ordered(numbers: CusipNumbers): Int32Array {
    const { keys, count } = this;
    const order = new Int32Array(count);
    const sortKeys = new Float64Array(count);
    for (let slot = 0; slot < count; slot++) {
      const key = keys[slot] as number;
      const code = numbers.codeOf((key / CODES) | 0);
      if (code < 0) return this.orderedByText(numbers.cusips);
      sortKeys[slot] = code * CODES + (RANK[key % CODES] as number);
    }
    sortKeys.sort();
    for (let i = 0; i < count; i++) {
      const sortKey = sortKeys[i] as number;
      const code = Math.floor(sortKey / CODES);
      const n = numbers.numberOfCode(code);
      order[i] = (this.slotOf[n * CODES + (CODE_OF_RANK[sortKey - code * CODES] as number)] as number) - 1;
    }
    return order;
  }

  private orderedByText(cusips: readonly string[]): Int32Array {
    const { keys } = this;
    return Int32Array.from({ length: this.count }, (_, slot) => slot).sort((a, b) => {
      const ka = keys[a] as number;
      const kb = keys[b] as number;
      const na = (ka / CODES) | 0;
      const nb = (kb / CODES) | 0;
      // Numbers are given per CUSIP text: two numbers, two texts.
      if (na !== nb) return (cusips[na] as string) < (cusips[nb] as string) ? -1 : 1;
      return (RANK[ka % CODES] as number) - (RANK[kb % CODES] as number);
    });
  }
}
