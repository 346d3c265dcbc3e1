/** Pure overlap/compare arithmetic over holdings grouped by CUSIP (no SQL here). */
import { type ManagerHoldings, managerSummary } from './comparison.queries.js';
import { money, percent } from './params.js';

export function overlapOf(managers: readonly ManagerHoldings[]) {
  const matrix: Record<string, Record<string, number>> = {};
  for (const a of managers) {
    matrix[a.cik] = {};
    for (const b of managers) {
      let shared = 0;
      for (const cusip of a.byCusip.keys()) if (b.byCusip.has(cusip)) shared++;
      (matrix[a.cik] as Record<string, number>)[b.cik] = shared;
    }
  }
  const cusips = new Set(managers.flatMap((m) => [...m.byCusip.keys()]));
  const shared = [...cusips]
    .map((cusip) => {
      const holders = managers
        .filter((m) => m.byCusip.has(cusip))
        .map((m) => ({
          cik: m.cik,
          ...(m.byCusip.get(cusip) as { issuer: string; value: number; shares: number }),
        }));
      const total = holders.reduce((sum, h) => sum + h.value, 0);
      return { cusip, issuer: holders[0]?.issuer ?? '', holders, total };
    })
    .filter((s) => s.holders.length >= 2)
    .sort(
      (a, b) => b.holders.length - a.holders.length || b.total - a.total || a.cusip.localeCompare(b.cusip),
    );
  return {
    managers: managers.map(managerSummary),
    shared_positions: shared.map((s) => ({
      cusip: s.cusip,
      issuer: s.issuer,
      holder_count: s.holders.length,
      holders: s.holders
        .sort((a, b) => b.value - a.value || a.cik.localeCompare(b.cik))
        .map((h) => ({ cik: h.cik, value: money(h.value), shares: h.shares })),
    })),
    similarity_matrix: matrix,
  };
}

export function compareManagers(m1: ManagerHoldings, m2: ManagerHoldings) {
  const shared = [...m1.byCusip.keys()].filter((cusip) => m2.byCusip.has(cusip));
  const only1 = m1.byCusip.size - shared.length;
  const only2 = m2.byCusip.size - shared.length;
  const union = shared.length + only1 + only2;
  const positions = shared
    .map((cusip) => {
      const a = m1.byCusip.get(cusip) as { issuer: string; value: number; shares: number };
      const b = m2.byCusip.get(cusip) as { issuer: string; value: number; shares: number };
      return {
        cusip,
        issuer: a.issuer,
        value1: money(a.value),
        value2: money(b.value),
        shares1: a.shares,
        shares2: b.shares,
        weight1: percent(a.value, m1.total_value),
        weight2: percent(b.value, m2.total_value),
      };
    })
    .sort((a, b) => b.value1 + b.value2 - (a.value1 + a.value2) || a.cusip.localeCompare(b.cusip));
  return {
    manager1: managerSummary(m1),
    manager2: managerSummary(m2),
    shared_count: shared.length,
    only_in_1_count: only1,
    only_in_2_count: only2,
    jaccard: union === 0 ? 0 : Math.round((shared.length / union) * 1e6) / 1e6,
    shared_positions: positions,
  };
}
