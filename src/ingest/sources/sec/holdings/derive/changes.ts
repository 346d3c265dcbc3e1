/**
 * Quarter-over-quarter changes (SPEC §6), derived at load time so that no request compares whole
 * portfolios: every equity position (SH, no put/call, one per CUSIP) of a manager's quarter against
 * its previous filed quarter, plus a `sold_out` change for each CUSIP it held then and not now.
 *
 * Shares before are multiplied by the split factor between the two quarters (split_spans), then
 * compared with shares now: less than UNCHANGED_WITHIN_SHARES apart is `unchanged`, more is `added`,
 * less `reduced`. Weights are percent of the manager's total portfolio value of that quarter, as on
 * the portfolio endpoint. A manager's changes are ordered for its changes page: |value_after −
 * value_before| descending, then CUSIP.
 *
 * Stored packed (change-pack.ts): each manager quarter's changes in one `changes_by_manager` row,
 * each security quarter's holders in one `holders_by_security` row (quarter-holders.ts); their counts
 * in `manager_changes` and `security_changes`.
 * Quarter by quarter, managers a batch at a time with the equity positions of the quarter and of
 * their previous ones (their packed portfolios: one row per manager quarter), so a quarter of
 * millions of positions is one sequential pass and only one quarter's changes are held at a time.
 */
import { BatchedInsert } from '../../../../../db/batched-insert.js';
import { insertRows } from '../../../../../db/bulk.js';
import type { DbHandle } from '../../../../../db/connect.js';
import {
  MANAGER_CHANGES,
  packChanges,
  SHARES_AFTER,
  SHARES_BEFORE,
  SPLIT_FACTOR,
  VALUE_AFTER,
  VALUE_BEFORE,
  writeKey,
} from '../../../../../holdings/change-pack.js';
import { isEquityCode, unpackPortfolio } from '../../../../../holdings/portfolio-pack.js';
import {
  CHANGE_STATUSES,
  type ChangeStatus,
  type ManagerChangesTable,
  type PositionChange,
  UNCHANGED_WITHIN_SHARES,
} from '../../../../../holdings/tables.js';
import type { Executor } from './executor.js';
import { countColumns, QuarterHolders } from './quarter-holders.js';
import { SmartMoneyTally } from './smart-money.js';

/** Managers read per query (each with the quarter's and its previous quarter's equity positions). */
const MANAGERS_PER_READ = 200;
/** Packed changes are written once they reach about this many bytes. */
const BYTES_PER_WRITE = 16 << 20;
const CHANGE_TABLES = [
  'manager_changes',
  'changes_by_manager',
  'security_changes',
  'holders_by_security',
] as const;

export interface Held {
  shares: number;
  value: number;
}
export type Portfolio = Map<string, Held>;
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

/** One manager quarter's changes, in its changes page's order. */
export function compare(c: Comparison, factorOf: (from: string, to: string, cusip: string) => number | null) {
  const rows: PositionChange[] = [];
  const change = (cusip: string, before: Held | undefined, after: Held | undefined) => {
    const factor = c.previous === null ? null : factorOf(c.previous, c.quarter, cusip);
    const sharesBefore = before ? before.shares * (factor ?? 1) : 0;
    rows.push({
      cusip,
      status: statusOf(before, after, sharesBefore),
      shares_before: sharesBefore,
      shares_after: after?.shares ?? 0,
      value_before: before?.value ?? 0,
      value_after: after?.value ?? 0,
      weight_before: before && c.totalBefore > 0 ? (before.value / c.totalBefore) * 100 : 0,
      weight_after: after && c.totalAfter > 0 ? (after.value / c.totalAfter) * 100 : 0,
      split_factor: factor,
    });
  };
  for (const [cusip, after] of c.after) change(cusip, c.before.get(cusip), after);
  for (const [cusip, before] of c.before) if (!c.after.has(cusip)) change(cusip, before, undefined);
  const moved = (r: PositionChange) => Math.abs(r.value_after - r.value_before);
  rows.sort((a, b) => moved(b) - moved(a) || (a.cusip < b.cusip ? -1 : a.cusip > b.cusip ? 1 : 0));
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

/**
 * The equity positions of a batch of managers in some quarters (cik → quarter → CUSIP → held), from
 * their packed portfolios (written by the same derivation, before the changes): one row per manager
 * quarter instead of one per position.
 */
async function portfolios(executor: Executor, ciks: readonly string[], quarters: readonly string[]) {
  const rows = await executor
    .selectFrom('manager_portfolios')
    .select(['cik', 'quarter', 'positions'])
    .where('cik', 'in', ciks)
    .where('quarter', 'in', quarters)
    .execute();
  const byCik = new Map<string, Map<string, Portfolio>>();
  for (const row of rows) {
    const packed = unpackPortfolio(row.positions);
    const portfolio: Portfolio = new Map();
    for (let i = 0; i < packed.count; i++) {
      if (!isEquityCode(packed.codes[i] as number)) continue;
      portfolio.set(packed.cusip(i), {
        shares: packed.shares[i] as number,
        value: packed.values[i] as number,
      });
    }
    entry(byCik, row.cik, () => new Map()).set(row.quarter, portfolio);
  }
  return byCik;
}

interface ManagerQuarter {
  cik: string;
  quarter: string;
  total: number;
  previous: { quarter: string; total: number } | undefined;
}

/** A manager quarter's changes, packed in their order (no split factor: NaN). */
function packed(rows: readonly PositionChange[], totalBefore: number, totalAfter: number): Buffer {
  return packChanges(MANAGER_CHANGES, {
    count: rows.length,
    head: [totalBefore, totalAfter],
    // A loop per column, each field named: one loop over field names makes every read a slow lookup.
    numbers: (c, into) => {
      const n = rows.length;
      const row = (i: number) => rows[i] as PositionChange;
      if (c === SHARES_BEFORE) for (let i = 0; i < n; i++) into[i] = row(i).shares_before;
      else if (c === SHARES_AFTER) for (let i = 0; i < n; i++) into[i] = row(i).shares_after;
      else if (c === VALUE_BEFORE) for (let i = 0; i < n; i++) into[i] = row(i).value_before;
      else if (c === VALUE_AFTER) for (let i = 0; i < n; i++) into[i] = row(i).value_after;
      else if (c === SPLIT_FACTOR) for (let i = 0; i < n; i++) into[i] = row(i).split_factor ?? Number.NaN;
      else throw new Error(`no column ${c} in packed changes`);
    },
    statuses: (into) => {
      for (let i = 0; i < rows.length; i++)
        into[i] = STATUS_INDEX.get((rows[i] as PositionChange).status) as number;
    },
    keys: (into) => {
      const w = MANAGER_CHANGES.keyBytes;
      for (let i = 0; i < rows.length; i++) writeKey((rows[i] as PositionChange).cusip, w, into, w * i);
    },
  });
}

/** One quarter's changes, packed, with their counts per manager and per security. */
async function writeQuarter(
  handle: DbHandle,
  executor: Executor,
  managers: readonly ManagerQuarter[],
  factorOf: (from: string, to: string, cusip: string) => number | null,
  smart: SmartMoneyTally,
): Promise<void> {
  const holders = new QuarterHolders();
  const managerRows: ManagerChangesTable[] = [];
  const packedRows = new BatchedInsert(handle, executor, 'changes_by_manager', BYTES_PER_WRITE);
  for (let start = 0; start < managers.length; start += MANAGERS_PER_READ) {
    const batch = managers.slice(start, start + MANAGERS_PER_READ);
    const quarters = new Set(
      batch.flatMap((m) => (m.previous ? [m.quarter, m.previous.quarter] : [m.quarter])),
    );
    const held = await portfolios(
      executor,
      batch.map((m) => m.cik),
      [...quarters],
    );
    for (const { cik, quarter, total, previous } of batch) {
      const portfolioOf = (q: string): Portfolio => held.get(cik)?.get(q) ?? new Map();
      const before: Portfolio = previous ? portfolioOf(previous.quarter) : new Map();
      const after = portfolioOf(quarter);
      smart.add(quarter, previous?.quarter ?? null, before, after);
      const totalBefore = previous?.total ?? 0;
      // biome-ignore format: one comparison
      const rows = compare({ cik, quarter, previous: previous?.quarter ?? null, before, after, totalBefore,
        totalAfter: total }, factorOf);
      const counts = [0, 0, 0, 0, 0];
      let valueBefore = 0;
      let valueAfter = 0;
      holders.startManager(cik);
      for (const row of rows) {
        const status = STATUS_INDEX.get(row.status) as number;
        counts[status] = (counts[status] as number) + 1;
        valueBefore += row.value_before;
        valueAfter += row.value_after;
        holders.add(status, row);
      }
      // biome-ignore format: one row
      managerRows.push({ cik, quarter, previous_quarter: previous?.quarter ?? null, ...countColumns(counts),
        value_before: valueBefore, value_after: valueAfter });
      const changes = packed(rows, totalBefore, total);
      await packedRows.add({ cik, quarter, changes }, changes.length);
    }
  }
  await packedRows.flush();
  await insertRows(handle, 'manager_changes', managerRows, executor);
  await holders.write(handle, executor, managers[0]?.quarter as string);
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
  const byQuarter = new Map<string, ManagerQuarter[]>();
  for (const [cik, quarters] of filed) {
    quarters.forEach(({ quarter, total }, i) => {
      if (quarter >= from)
        entry(byQuarter, quarter, () => []).push({ cik, quarter, total, previous: quarters[i - 1] });
    });
  }
  for (const quarter of [...byQuarter.keys()].sort()) {
    await writeQuarter(handle, executor, byQuarter.get(quarter) as ManagerQuarter[], factorOf, smart);
  }
}

/**
 * Every quarter's changes when none is stored packed but quarters are derived: a database loaded
 * before migration 0014. Smart money is left as stored (it came from the same comparisons, and its
 * issuer names from the security master of its load). Returns whether it wrote them.
 */
export async function backfillChanges(handle: DbHandle, executor: Executor): Promise<boolean> {
  const packed = await executor.selectFrom('changes_by_manager').select('cik').limit(1).execute();
  if (packed.length > 0) return false;
  const rows = await executor.selectFrom('holdings_quarters').select('quarter').orderBy('quarter').execute();
  const quarters = rows.map((row) => row.quarter);
  if (quarters[0] === undefined) return false;
  await writeChanges(handle, executor, quarters[0], new SmartMoneyTally(quarters));
  return true;
}
