/**
 * One manager quarter's equity positions compared with its previous filed quarter's (SPEC §6), column
 * by column: CUSIPs are numbers of the pass's CusipNumbers, the two portfolios are matched through an
 * array indexed by those numbers, and the changes come out as typed arrays in the changes page's
 * order. No map, no string and no object per position: the changes pass compares every position of
 * every quarter (millions), and the as-of answers compare one manager the same way (changes.ts).
 *
 * Shares before are multiplied by the split factor between the two quarters, then compared with
 * shares now: less than UNCHANGED_WITHIN_SHARES apart is `unchanged`, more is `added`, less
 * `reduced`. Weights are percent of the manager's total portfolio value of that quarter, as on the
 * portfolio endpoint. Order: |value_after − value_before| descending, then CUSIP.
 */
import {
  CHANGE_STATUSES,
  type ChangeStatus,
  UNCHANGED_WITHIN_SHARES,
} from '../../../../../holdings/tables.js';
import { sortByValueDescending } from '../../../../../typed-arrays.js';
import type { CusipNumbers } from './cusip-numbers.js';

/**
 * A manager quarter's equity positions (SH, no put/call), by CUSIP number: one per CUSIP, as the
 * positions are summed per CUSIP (the comparison relies on it).
 */
export interface EquityPositions {
  readonly count: number;
  readonly cusips: Int32Array;
  readonly shares: Float64Array;
  /** Thousands of USD. */
  readonly values: Float64Array;
}

export const NO_POSITIONS: EquityPositions = {
  count: 0,
  cusips: new Int32Array(0),
  shares: new Float64Array(0),
  values: new Float64Array(0),
};

/** Positions given by CUSIP (one manager's, at request time), numbered by `numbers`. */
export function equityPositionsOf(
  held: ReadonlyMap<string, { readonly shares: number; readonly value: number }>,
  numbers: CusipNumbers,
): EquityPositions {
  const list = [...held];
  return {
    count: list.length,
    cusips: Int32Array.from(list, ([cusip]) => numbers.numberOf(cusip)),
    shares: Float64Array.from(list, ([, h]) => h.shares),
    values: Float64Array.from(list, ([, h]) => h.value),
  };
}

const statusIndex = (status: ChangeStatus) => CHANGE_STATUSES.indexOf(status);
export const NEW = statusIndex('new');
export const ADDED = statusIndex('added');
export const REDUCED = statusIndex('reduced');
export const UNCHANGED = statusIndex('unchanged');
export const SOLD_OUT = statusIndex('sold_out');

/** A manager quarter's changes in page order; a status is its index in CHANGE_STATUSES. */
export interface EquityChanges {
  readonly count: number;
  readonly cusips: Int32Array;
  readonly status: Uint8Array;
  /** Multiplied by the split factor (comparable with shares after); 0 when new. */
  readonly sharesBefore: Float64Array;
  /** As filed, not split-adjusted (smart money's inflows); 0 when new. */
  readonly filedSharesBefore: Float64Array;
  readonly sharesAfter: Float64Array;
  readonly valueBefore: Float64Array;
  readonly valueAfter: Float64Array;
  readonly weightBefore: Float64Array;
  readonly weightAfter: Float64Array;
  /** NaN when no split lies between the quarters (or there is no previous quarter). */
  readonly splitFactor: Float64Array;
}

/** Both sides of one comparison; `factors`: split factors by CUSIP number, null without a previous quarter. */
export interface EquityComparison {
  readonly before: EquityPositions;
  readonly after: EquityPositions;
  readonly totalBefore: number;
  readonly totalAfter: number;
  readonly factors: ReadonlyMap<number, number> | null;
}

const percentOf = (value: number, total: number) => (total > 0 ? (value / total) * 100 : 0);

/** The arrays one comparison works in, reused by the next (grown as needed). */
class Scratch {
  capacity = 0;
  cusips = new Int32Array(0);
  from = new Int32Array(0);
  to = new Int32Array(0);
  moved = new Float64Array(0);
  order = new Uint32Array(0);
  changes = emptyChanges(0);

  /** Room for `n` entries. */
  reserve(n: number): void {
    if (n <= this.capacity) return;
    const size = Math.max(n, 2 * this.capacity);
    this.capacity = size;
    this.cusips = new Int32Array(size);
    this.from = new Int32Array(size);
    this.to = new Int32Array(size);
    this.moved = new Float64Array(size);
    this.order = new Uint32Array(size);
    this.changes = emptyChanges(size);
  }
}

/** The first `n` entries of each of `all`'s columns. */
function firstOf(all: EquityChanges, n: number): EquityChanges {
  return {
    count: n,
    cusips: all.cusips.subarray(0, n),
    status: all.status.subarray(0, n),
    sharesBefore: all.sharesBefore.subarray(0, n),
    filedSharesBefore: all.filedSharesBefore.subarray(0, n),
    sharesAfter: all.sharesAfter.subarray(0, n),
    valueBefore: all.valueBefore.subarray(0, n),
    valueAfter: all.valueAfter.subarray(0, n),
    weightBefore: all.weightBefore.subarray(0, n),
    weightAfter: all.weightAfter.subarray(0, n),
    splitFactor: all.splitFactor.subarray(0, n),
  };
}

/**
 * Compares one manager quarter after another. The changes it returns are views of memory the next
 * comparison reuses: read them (or copy them) before comparing again. A pass compares thousands of
 * managers, and fresh arrays for each (sixteen a comparison) cost ~0.2 s at full scale.
 */
export class EquityComparer {
  /** 1 + a CUSIP number's position in the `before` side being compared; 0 between comparisons. */
  private slots = new Int32Array(0);
  private readonly scratch = new Scratch();

  constructor(private readonly numbers: CusipNumbers) {}

  compare({ before, after, totalBefore, totalAfter, factors }: EquityComparison): EquityChanges {
    if (this.slots.length < this.numbers.cusips.length)
      this.slots = new Int32Array(Math.max(this.numbers.cusips.length, 2 * this.slots.length));
    const slots = this.slots;
    for (let j = 0; j < before.count; j++) slots[before.cusips[j] as number] = j + 1;
    // Unordered: every position held now, then those held before only; `from[e]` / `to[e]` its
    // position before / now, or −1. A before position matched now has its slot negated.
    const most = after.count + before.count;
    this.scratch.reserve(most);
    const { cusips, from, to } = this.scratch;
    for (let i = 0; i < after.count; i++) {
      const cusip = after.cusips[i] as number;
      const slot = slots[cusip] as number;
      cusips[i] = cusip;
      to[i] = i;
      from[i] = slot - 1;
      if (slot > 0) slots[cusip] = -slot;
    }
    let n = after.count;
    for (let j = 0; j < before.count; j++) {
      const cusip = before.cusips[j] as number;
      if ((slots[cusip] as number) > 0) {
        cusips[n] = cusip;
        to[n] = -1;
        from[n] = j;
        n++;
      }
      slots[cusip] = 0;
    }
    const changes = firstOf(this.scratch.changes, n);
    const moved = this.scratch.moved;
    for (let e = 0; e < n; e++) {
      const j = from[e] as number;
      const i = to[e] as number;
      moved[e] = Math.abs(
        (i < 0 ? 0 : (after.values[i] as number)) - (j < 0 ? 0 : (before.values[j] as number)),
      );
    }
    const order = this.scratch.order.subarray(0, n);
    for (let e = 0; e < n; e++) order[e] = e;
    sortByValueDescending(order, moved);
    // Equal moves (a few) are ordered by CUSIP.
    const cusipText = this.numbers.cusips;
    const byCusip = (a: number, b: number) => {
      const x = cusipText[cusips[a] as number] as string;
      const y = cusipText[cusips[b] as number] as string;
      return x < y ? -1 : x > y ? 1 : 0;
    };
    for (let r = 0, end = 1; r < n; r = end++) {
      const move = moved[order[r] as number] as number;
      while (end < n && moved[order[end] as number] === move) end++;
      if (end - r > 1) order.subarray(r, end).sort(byCusip);
    }
    for (let r = 0; r < n; r++) {
      const e = order[r] as number;
      const cusip = cusips[e] as number;
      const j = from[e] as number;
      const i = to[e] as number;
      const factor = factors === null ? undefined : factors.get(cusip);
      const filedBefore = j < 0 ? 0 : (before.shares[j] as number);
      const sharesBefore = j < 0 ? 0 : filedBefore * (factor ?? 1);
      const sharesAfter = i < 0 ? 0 : (after.shares[i] as number);
      const valueBefore = j < 0 ? 0 : (before.values[j] as number);
      const valueAfter = i < 0 ? 0 : (after.values[i] as number);
      changes.cusips[r] = cusip;
      changes.status[r] =
        j < 0
          ? NEW
          : i < 0
            ? SOLD_OUT
            : Math.abs(sharesAfter - sharesBefore) < UNCHANGED_WITHIN_SHARES
              ? UNCHANGED
              : sharesAfter > sharesBefore
                ? ADDED
                : REDUCED;
      changes.sharesBefore[r] = sharesBefore;
      changes.filedSharesBefore[r] = filedBefore;
      changes.sharesAfter[r] = sharesAfter;
      changes.valueBefore[r] = valueBefore;
      changes.valueAfter[r] = valueAfter;
      changes.weightBefore[r] = j < 0 ? 0 : percentOf(valueBefore, totalBefore);
      changes.weightAfter[r] = i < 0 ? 0 : percentOf(valueAfter, totalAfter);
      changes.splitFactor[r] = factor ?? Number.NaN;
    }
    return changes;
  }
}

function emptyChanges(n: number): EquityChanges {
  return {
    count: n,
    cusips: new Int32Array(n),
    status: new Uint8Array(n),
    sharesBefore: new Float64Array(n),
    filedSharesBefore: new Float64Array(n),
    sharesAfter: new Float64Array(n),
    valueBefore: new Float64Array(n),
    valueAfter: new Float64Array(n),
    weightBefore: new Float64Array(n),
    weightAfter: new Float64Array(n),
    splitFactor: new Float64Array(n),
  };
}
