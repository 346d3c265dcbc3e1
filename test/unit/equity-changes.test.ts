/**
 * EquityComparer (the changes pass's comparison, also behind the `as_of` changes) against a plain
 * computation of SPEC §6's rule written here from objects: statuses, split-adjusted shares before,
 * weights, split factors and the page order (|value_after − value_before| descending, then CUSIP),
 * on random portfolios with tied values, empty sides, splits and no previous quarter, with one
 * comparer reused while the CUSIP numbering grows (its scratch array must come back clean).
 */
import { describe, expect, it } from 'vitest';
import { CHANGE_STATUSES, UNCHANGED_WITHIN_SHARES } from '../../src/holdings/tables.js';
import { CusipNumbers } from '../../src/ingest/sources/sec/holdings/derive/cusip-numbers.js';
import {
  EquityComparer,
  equityPositionsOf,
} from '../../src/ingest/sources/sec/holdings/derive/equity-changes.js';

type Side = Map<string, { shares: number; value: number }>;

function random(seed: number) {
  let state = seed;
  return () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 4294967296;
  };
}

/** The rule, one CUSIP at a time. */
function expected(
  before: Side,
  after: Side,
  totalBefore: number,
  totalAfter: number,
  factors: Map<string, number> | null,
) {
  const cusips = [...new Set([...after.keys(), ...before.keys()])];
  const rows = cusips.map((cusip) => {
    const b = before.get(cusip);
    const a = after.get(cusip);
    const factor = factors === null ? null : (factors.get(cusip) ?? null);
    const sharesBefore = b ? b.shares * (factor ?? 1) : 0;
    const sharesAfter = a?.shares ?? 0;
    let status = 'new';
    if (b && !a) status = 'sold_out';
    else if (b && a)
      status =
        Math.abs(sharesAfter - sharesBefore) < UNCHANGED_WITHIN_SHARES
          ? 'unchanged'
          : sharesAfter > sharesBefore
            ? 'added'
            : 'reduced';
    return {
      cusip,
      status,
      sharesBefore,
      sharesAfter,
      valueBefore: b?.value ?? 0,
      valueAfter: a?.value ?? 0,
      weightBefore: b && totalBefore > 0 ? (b.value / totalBefore) * 100 : 0,
      weightAfter: a && totalAfter > 0 ? (a.value / totalAfter) * 100 : 0,
      splitFactor: factor,
    };
  });
  const moved = (r: (typeof rows)[number]) => Math.abs(r.valueAfter - r.valueBefore);
  return rows.sort((x, y) => moved(y) - moved(x) || (x.cusip < y.cusip ? -1 : 1));
}

describe('EquityComparer', () => {
  it('compares as the rule says, in page order, call after call', () => {
    const next = random(20261129);
    const numbers = new CusipNumbers();
    const comparer = new EquityComparer(numbers);
    const universe = (size: number) =>
      Array.from({ length: size }, (_, i) => `${String(i).padStart(8, '0')}X`);
    let compared = 0;
    for (let round = 0; round < 200; round++) {
      // The universe grows, so the numbering grows between comparisons.
      const cusips = universe(20 + round * 3);
      const side = (share: number): Side => {
        const held: Side = new Map();
        // In no particular order (a portfolio comes by value), so that only the comparer orders ties.
        const shuffled = cusips.map((cusip) => ({ cusip, key: next() })).sort((x, y) => x.key - y.key);
        for (const { cusip } of shuffled) {
          if (next() > share) continue;
          // Few distinct values: ties are common, and the CUSIP must break them.
          const shares = Math.floor(next() * 5) * 100 + (next() < 0.2 ? 0.5 : 0);
          held.set(cusip, { shares, value: Math.floor(next() * 4) * 250 });
        }
        return held;
      };
      const before = round % 10 === 0 ? new Map() : side(0.5);
      const after = round % 10 === 5 ? new Map() : side(0.5);
      // Some held before are held again with the same or split-multiplied shares.
      for (const [cusip, held] of before)
        if (next() < 0.3)
          after.set(cusip, { shares: held.shares * (next() < 0.5 ? 1 : 2), value: held.value });
      const hasPrevious = round % 7 !== 0;
      const splits = new Map<string, number>();
      for (const cusip of cusips) if (next() < 0.1) splits.set(cusip, next() < 0.5 ? 2 : 0.25);
      const totalBefore = round % 13 === 0 ? 0 : 10_000;
      const totalAfter = 12_500;
      const b = equityPositionsOf(before, numbers);
      const a = equityPositionsOf(after, numbers);
      const factors = hasPrevious ? new Map([...splits].map(([c, f]) => [numbers.numberOf(c), f])) : null;
      const got = comparer.compare({ before: b, after: a, totalBefore, totalAfter, factors });
      const want = expected(before, after, totalBefore, totalAfter, hasPrevious ? splits : null);
      expect(got.count).toBe(want.length);
      want.forEach((row, r) => {
        const factor = got.splitFactor[r] as number;
        expect({
          cusip: numbers.cusips[got.cusips[r] as number],
          status: CHANGE_STATUSES[got.status[r] as number],
          sharesBefore: got.sharesBefore[r],
          sharesAfter: got.sharesAfter[r],
          valueBefore: got.valueBefore[r],
          valueAfter: got.valueAfter[r],
          weightBefore: got.weightBefore[r],
          weightAfter: got.weightAfter[r],
          splitFactor: Number.isNaN(factor) ? null : factor,
        }).toEqual(row);
        expect(got.filedSharesBefore[r]).toBe(before.get(row.cusip)?.shares ?? 0);
      });
      compared += want.length;
    }
    expect(compared).toBeGreaterThan(10_000);
  });
});
