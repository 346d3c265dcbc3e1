/**
 * Overlap and compare (SPEC §3) over what the managers hold per security (held-by-security.ts): one
 * walk over the securities any of them holds gives the similarity matrix, the shared positions and
 * the counts. No SQL here. The answers run to megabytes (the 5 largest managers' overlap: ~41,000
 * holder entries): their shared positions are made one at a time as the answer is written
 * (http/json-buffer.ts).
 */
import type { ManagerSummary } from './comparison.queries.js';
import { type HeldBySecurity, holderCount } from './held-by-security.js';
import { money, percent } from './params.js';

/** Slots ordered by `order`, ties by CUSIP. */
function byCusipAfter(
  held: HeldBySecurity,
  slots: number[],
  order: (a: number, b: number) => number,
): number[] {
  const cusip = (slot: number) => held.catalogue.entry(held.ids[slot] as number).cusip;
  return slots.sort((a, b) => {
    const first = order(a, b);
    if (first !== 0) return first;
    const x = cusip(a);
    const y = cusip(b);
    return x < y ? -1 : x > y ? 1 : 0;
  });
}

function summary(m: ManagerSummary): ManagerSummary {
  return { cik: m.cik, name: m.name, position_count: m.position_count, total_value: m.total_value };
}

/** Bits set in each mask of up to 5 managers. */
const POPCOUNT = Array.from({ length: 32 }, (_, mask) => holderCount(mask));

export function overlapOf(managers: readonly ManagerSummary[], held: HeldBySecurity) {
  const k = managers.length;
  // How many securities each combination of holders (a bit mask) holds: the similarity matrix sums
  // them, so the walk over the securities does one increment each.
  const perMask = new Int32Array(1 << k);
  const shared: number[] = [];
  for (let slot = 0; slot < held.slots; slot++) {
    const bits = held.holders[slot] as number;
    perMask[bits] = (perMask[bits] as number) + 1;
    if ((POPCOUNT[bits] as number) >= 2) shared.push(slot);
  }
  const count = (i: number, j: number) => {
    let n = 0;
    for (let mask = 0; mask < perMask.length; mask++)
      if ((mask & (1 << i)) !== 0 && (mask & (1 << j)) !== 0) n += perMask[mask] as number;
    return n;
  };
  const holdersOf = new Int32Array(held.slots);
  const totals = new Float64Array(held.slots);
  for (const slot of shared) {
    const bits = held.holders[slot] as number;
    holdersOf[slot] = POPCOUNT[bits] as number;
    for (let i = 0; i < k; i++)
      if ((bits & (1 << i)) !== 0) totals[slot] = (totals[slot] as number) + held.value(slot, i);
  }
  byCusipAfter(
    held,
    shared,
    (a, b) =>
      (holdersOf[b] as number) - (holdersOf[a] as number) || (totals[b] as number) - (totals[a] as number),
  );
  const ciks = managers.map((m) => m.cik);
  const sharedPosition = (n: number) => {
    const slot = shared[n] as number;
    const bits = held.holders[slot] as number;
    // Holders by value descending, then CIK: an insertion sort of at most five.
    const holders: { cik: string; value: number; shares: number }[] = [];
    const raw: number[] = [];
    for (let i = 0; i < k; i++) {
      if ((bits & (1 << i)) === 0) continue;
      const value = held.value(slot, i);
      const cik = ciks[i] as string;
      let at = holders.length;
      // biome-ignore format: one condition
      while (at > 0 && ((raw[at - 1] as number) < value || (raw[at - 1] === value && (holders[at - 1] as { cik: string }).cik > cik))) at--;
      holders.splice(at, 0, { cik, value: money(value), shares: held.sharesOf(slot, i) });
      raw.splice(at, 0, value);
    }
    const security = held.catalogue.entry(held.ids[slot] as number);
    return {
      cusip: security.cusip,
      issuer: security.issuer,
      ticker: security.ticker,
      holder_count: holders.length,
      holders,
    };
  };
  // matrix[i][j]: distinct securities managers i and j both hold; the diagonal, i's own.
  const matrix: Record<string, Record<string, number>> = {};
  managers.forEach((a, i) => {
    const row: Record<string, number> = {};
    managers.forEach((b, j) => {
      row[b.cik] = count(i, j);
    });
    matrix[a.cik] = row;
  });
  return {
    managers: managers.map(summary),
    /** shared_positions, made one at a time as the answer is written. */
    shared: { count: shared.length, at: sharedPosition },
    similarity_matrix: matrix,
  };
}

export function compareManagers(managers: readonly ManagerSummary[], held: HeldBySecurity) {
  const [m1, m2] = managers as [ManagerSummary, ManagerSummary];
  let only1 = 0;
  let only2 = 0;
  const shared: number[] = [];
  const sums = new Float64Array(held.slots);
  for (let slot = 0; slot < held.slots; slot++) {
    const bits = held.holders[slot] as number;
    if (bits === 3) {
      shared.push(slot);
      sums[slot] = money(held.value(slot, 0)) + money(held.value(slot, 1));
    } else if (bits === 1) only1++;
    else if (bits === 2) only2++;
  }
  byCusipAfter(held, shared, (a, b) => (sums[b] as number) - (sums[a] as number));
  const position = (n: number) => {
    const slot = shared[n] as number;
    const security = held.catalogue.entry(held.ids[slot] as number);
    const v1 = held.value(slot, 0);
    const v2 = held.value(slot, 1);
    return {
      cusip: security.cusip,
      issuer: security.issuer,
      ticker: security.ticker,
      value1: money(v1),
      value2: money(v2),
      shares1: held.sharesOf(slot, 0),
      shares2: held.sharesOf(slot, 1),
      weight1: percent(v1, m1.total_value),
      weight2: percent(v2, m2.total_value),
    };
  };
  const union = shared.length + only1 + only2;
  return {
    head: {
      manager1: summary(m1),
      manager2: summary(m2),
      shared_count: shared.length,
      only_in_1_count: only1,
      only_in_2_count: only2,
      jaccard: union === 0 ? 0 : Math.round((shared.length / union) * 1e6) / 1e6,
    },
    /** shared_positions, made one at a time as the answer is written. */
    shared: { count: shared.length, at: position },
  };
}
