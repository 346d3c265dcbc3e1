/**
 * Quarter-over-quarter changes (SPEC §6), derived at load time so that no request compares whole
 * portfolios: every equity position (SH, no put/call, one per CUSIP) of a manager's quarter against
 * its previous filed quarter, plus a `sold_out` row for each CUSIP it held then and not now.
 *
 * Shares before are multiplied by the split factor between the two quarters (split_spans), then
 * compared with shares now: less than UNCHANGED_WITHIN_SHARES apart is `unchanged`, more is `added`,
 * less `reduced`. Weights are percent of the manager's total portfolio value of that quarter, as on
 * the portfolio endpoint. `ordinal` fixes the order of a manager's changes page: |value_after −
 * value_before| descending, then CUSIP.
 *
 * Managers are read a batch at a time with all their quarters' equity positions (one index range
 * per manager, no per-position lookups), so a quarter of millions of positions is one sequential
 * pass; the per-manager and per-security summaries are counted in the same pass.
 */
import { insertRows } from '../../../../../db/bulk.js';
import type { DbHandle } from '../../../../../db/connect.js';
import {
  CHANGE_STATUSES,
  type ChangeStatus,
  type ManagerChangesTable,
  type PositionChangesTable,
  UNCHANGED_WITHIN_SHARES,
} from '../../../../../holdings/tables.js';
import { withIndexesDeferredIfEmpty } from './deferred-indexes.js';
import type { Executor } from './executor.js';
import type { SmartMoneyTally } from './smart-money.js';

/** Managers read per query (each with every quarter's equity positions). */
const MANAGERS_PER_READ = 200;
const ROWS_PER_WRITE = 20_000;
const CHANGE_TABLES = ['position_changes', 'manager_changes', 'security_changes'] as const;

export interface Held {
  shares: number;
  value: number;
}
export type Portfolio = Map<string, Held>;
/** Per status, in CHANGE_STATUSES order. */
type Counts = number[];

const STATUS_INDEX = new Map(CHANGE_STATUSES.map((status, i) => [status, i]));

/** The map's value for `key`, created first when absent. */
function entry<K, V>(map: Map<K, V>, key: K, create: () => V): V {
  let value = map.get(key);
  if (value === undefined) {
    value = create();
    map.set(key, value);
  }
  return value;
}

/** The count columns of manager_changes and security_changes. */
const countColumns = (c: Counts) => ({
  new_count: c[0] ?? 0,
  added_count: c[1] ?? 0,
  reduced_count: c[2] ?? 0,
  unchanged_count: c[3] ?? 0,
  sold_out_count: c[4] ?? 0,
});

function statusOf(before: Held | undefined, after: Held | undefined, sharesBefore: number): ChangeStatus {
  if (!before) return 'new';
  if (!after) return 'sold_out';
  if (Math.abs(after.shares - sharesBefore) < UNCHANGED_WITHIN_SHARES) return 'unchanged';
  return after.shares > sharesBefore ? 'added' : 'reduced';
}

export interface Comparison {
  cik: string;
  quarter: string;
  previous: string | null;
  before: Portfolio;
  after: Portfolio;
  totalBefore: number;
  totalAfter: number;
}

/** One manager quarter's rows, ordered and numbered. */
export function compare(c: Comparison, factorOf: (from: string, to: string, cusip: string) => number | null) {
  const rows: PositionChangesTable[] = [];
  const cusips = new Set([...c.after.keys(), ...c.before.keys()]);
  for (const cusip of cusips) {
    const before = c.before.get(cusip);
    const after = c.after.get(cusip);
    const factor = c.previous === null ? null : factorOf(c.previous, c.quarter, cusip);
    const sharesBefore = before ? before.shares * (factor ?? 1) : 0;
    rows.push({
      quarter: c.quarter,
      cik: c.cik,
      cusip,
      status: statusOf(before, after, sharesBefore),
      shares_before: sharesBefore,
      shares_after: after?.shares ?? 0,
      value_before: before?.value ?? 0,
      value_after: after?.value ?? 0,
      weight_before: before && c.totalBefore > 0 ? (before.value / c.totalBefore) * 100 : 0,
      weight_after: after && c.totalAfter > 0 ? (after.value / c.totalAfter) * 100 : 0,
      split_factor: factor,
      ordinal: 0,
    });
  }
  const moved = (r: PositionChangesTable) => Math.abs(r.value_after - r.value_before);
  rows.sort((a, b) => moved(b) - moved(a) || (a.cusip < b.cusip ? -1 : a.cusip > b.cusip ? 1 : 0));
  rows.forEach((row, i) => {
    row.ordinal = i + 1;
  });
  return rows;
}

async function managerQuarters(executor: Executor) {
  const rows = await executor
    .selectFrom('manager_quarters')
    .select(['cik', 'quarter', 'total_value'])
    .orderBy('cik')
    .orderBy('quarter')
    .execute();
  const byCik = new Map<string, { quarter: string; total: number }[]>();
  for (const row of rows) {
    const list = byCik.get(row.cik) ?? [];
    list.push({ quarter: row.quarter, total: Number(row.total_value) });
    byCik.set(row.cik, list);
  }
  return byCik;
}

async function splitFactors(executor: Executor) {
  const spans = await executor.selectFrom('split_spans').selectAll().execute();
  const factors = new Map(
    spans.map((s) => [`${s.from_quarter}|${s.to_quarter}|${s.cusip}`, Number(s.factor)]),
  );
  return (from: string, to: string, cusip: string) => factors.get(`${from}|${to}|${cusip}`) ?? null;
}

/** The equity positions of a batch of managers, every quarter: cik → quarter → CUSIP → held. */
async function portfolios(executor: Executor, ciks: readonly string[]) {
  const rows = await executor
    .selectFrom('positions')
    .select(['cik', 'quarter', 'cusip', 'shares', 'value'])
    .where('cik', 'in', ciks)
    .where('is_equity', '=', 1)
    .execute();
  const byCik = new Map<string, Map<string, Portfolio>>();
  for (const row of rows) {
    const portfolio = entry(
      entry(byCik, row.cik, () => new Map()),
      row.quarter,
      () => new Map(),
    );
    portfolio.set(row.cusip, { shares: Number(row.shares), value: Number(row.value) });
  }
  return byCik;
}

/**
 * Rewrites the changes of every loaded quarter from `from` on (a quarter's changes read the one
 * before it), with the per-manager and per-security counts; `smart` sees every comparison (the latest
 * quarter is always among them).
 */
export async function writeChanges(
  handle: DbHandle,
  executor: Executor,
  from: string,
  smart: SmartMoneyTally,
): Promise<void> {
  for (const table of CHANGE_TABLES) await executor.deleteFrom(table).where('quarter', '>=', from).execute();
  const filed = await managerQuarters(executor);
  const factorOf = await splitFactors(executor);
  const ciks = [...filed.keys()].filter((cik) => filed.get(cik)?.some((q) => q.quarter >= from));
  const managerRows: ManagerChangesTable[] = [];
  const securityCounts = new Map<string, Counts>();
  await withIndexesDeferredIfEmpty(handle, executor, 'position_changes', async () => {
    let pending: PositionChangesTable[] = [];
    for (let start = 0; start < ciks.length; start += MANAGERS_PER_READ) {
      const batch = ciks.slice(start, start + MANAGERS_PER_READ);
      const held = await portfolios(executor, batch);
      for (const cik of batch) {
        const quarters = filed.get(cik) ?? [];
        const byQuarter = held.get(cik);
        const portfolioOf = (quarter: string): Portfolio => byQuarter?.get(quarter) ?? new Map();
        quarters.forEach(({ quarter, total }, i) => {
          if (quarter < from) return;
          const previous = i > 0 ? quarters[i - 1] : undefined;
          const before: Portfolio = previous ? portfolioOf(previous.quarter) : new Map();
          const after = portfolioOf(quarter);
          smart.add(quarter, previous?.quarter ?? null, before, after);
          // biome-ignore format: one comparison
          const rows = compare({ cik, quarter, previous: previous?.quarter ?? null, before, after,
            totalBefore: previous?.total ?? 0, totalAfter: total }, factorOf);
          const counts: Counts = [0, 0, 0, 0, 0];
          let valueBefore = 0;
          let valueAfter = 0;
          for (const row of rows) {
            const index = STATUS_INDEX.get(row.status) as number;
            counts[index] = (counts[index] as number) + 1;
            valueBefore += row.value_before;
            valueAfter += row.value_after;
            const key = `${quarter}|${row.cusip}`;
            const tally = entry(securityCounts, key, () => [0, 0, 0, 0, 0]);
            tally[index] = (tally[index] as number) + 1;
            pending.push(row);
          }
          managerRows.push({
            cik,
            quarter,
            previous_quarter: previous?.quarter ?? null,
            ...countColumns(counts),
            value_before: valueBefore,
            value_after: valueAfter,
          });
        });
      }
      if (pending.length >= ROWS_PER_WRITE) {
        await insertRows(handle, 'position_changes', pending, executor);
        pending = [];
      }
    }
    await insertRows(handle, 'position_changes', pending, executor);
  });
  await insertRows(handle, 'manager_changes', managerRows, executor);
  const securityRows = [...securityCounts].map(([key, c]) => {
    const [quarter, cusip] = key.split('|') as [string, string];
    return { quarter, cusip, ...countColumns(c) };
  });
  await insertRows(handle, 'security_changes', securityRows, executor);
}
