/** Pure overlap/compare arithmetic over holdings grouped by CUSIP (no SQL here). */
import { type Held, type Holdings, type ManagerSummary, managerSummary } from './comparison.queries.js';
import { money, percent } from './params.js';

interface Holder {
  cik: string;
  value: number;
  shares: number;
}

/**
 * One walk over the CUSIPs any of the managers holds: who holds each gives both the similarity
 * matrix (pairs, and each manager's own distinct count on the diagonal) and the shared positions.
 */
export function overlapOf({ managers, byCusip }: Holdings) {
  // counts[i][j]: distinct CUSIPs managers i and j both hold; the diagonal, i's own.
  const counts = managers.map(() => managers.map(() => 0));
  const bump = (i: number, j: number) => {
    const row = counts[i] as number[];
    row[j] = (row[j] as number) + 1;
  };
  const shared: { cusip: string; issuer: string; ticker: string | null; holders: Holder[]; total: number }[] =
    [];
  for (const [cusip, { issuer, ticker, held }] of byCusip) {
    const indexes: number[] = [];
    held.forEach((h, i) => {
      if (h) indexes.push(i);
    });
    for (const i of indexes) for (const j of indexes) bump(i, j);
    if (indexes.length < 2) continue;
    let total = 0;
    const holders = indexes.map((i) => {
      const { value, shares } = held[i] as Held;
      total += value;
      return { cik: (managers[i] as ManagerSummary).cik, value, shares };
    });
    shared.push({ cusip, issuer, ticker, holders, total });
  }
  shared.sort(
    (a, b) => b.holders.length - a.holders.length || b.total - a.total || a.cusip.localeCompare(b.cusip),
  );
  const matrix: Record<string, Record<string, number>> = {};
  managers.forEach((a, i) => {
    const row: Record<string, number> = {};
    managers.forEach((b, j) => {
      row[b.cik] = (counts[i] as number[])[j] as number;
    });
    matrix[a.cik] = row;
  });
  return {
    managers: managers.map(managerSummary),
    shared_positions: shared.map((s) => ({
      cusip: s.cusip,
      issuer: s.issuer,
      ticker: s.ticker,
      holder_count: s.holders.length,
      holders: s.holders
        .sort((a, b) => b.value - a.value || a.cik.localeCompare(b.cik))
        .map((h) => ({ cik: h.cik, value: money(h.value), shares: h.shares })),
    })),
    similarity_matrix: matrix,
  };
}

export function compareManagers({ managers, byCusip }: Holdings) {
  const [m1, m2] = managers as [ManagerSummary, ManagerSummary];
  let only1 = 0;
  let only2 = 0;
  const positions = [];
  for (const [cusip, { issuer, ticker, held }] of byCusip) {
    const [a, b] = held;
    if (a && b) {
      positions.push({
        cusip,
        issuer,
        ticker,
        value1: money(a.value),
        value2: money(b.value),
        shares1: a.shares,
        shares2: b.shares,
        weight1: percent(a.value, m1.total_value),
        weight2: percent(b.value, m2.total_value),
      });
    } else if (a) only1++;
    else if (b) only2++;
  }
  positions.sort((a, b) => b.value1 + b.value2 - (a.value1 + a.value2) || a.cusip.localeCompare(b.cusip));
  const union = positions.length + only1 + only2;
  return {
    manager1: managerSummary(m1),
    manager2: managerSummary(m2),
    shared_count: positions.length,
    only_in_1_count: only1,
    only_in_2_count: only2,
    jaccard: union === 0 ? 0 : Math.round((positions.length / union) * 1e6) / 1e6,
    shared_positions: positions,
  };
}
