/**
 * Quarter-over-quarter changes (SPEC §6), derived at load time so that no request compares whole
 * portfolios: every equity position (SH, no put/call, one per CUSIP) of a manager's quarter against
 * its previous filed quarter, plus a `sold_out` change for each CUSIP it held then and not now.
 *
 * The comparison itself is equity-changes.ts: CUSIPs numbered once for the pass, positions and
 * changes as typed arrays.
 *
 * Stored packed (change-pack.ts): each manager quarter's changes in one `changes_by_manager` row,
 * each security quarter's holders in one `holders_by_security` row (quarter-holders.ts); their counts
 * in `manager_changes` and `security_changes`.
 * Quarter by quarter, managers a batch at a time with the equity positions of the quarter (their
 * packed portfolios: one row per manager quarter) and of their previous ones (kept from the quarter
 * compared before when that is the one, read otherwise), so a quarter of millions of positions is
 * one sequential pass and only one quarter's changes and portfolios are held at a time.
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
} from '../../../../../holdings/change-pack.js';
import { CUSIP_BYTES, isEquityCode, unpackPortfolio } from '../../../../../holdings/portfolio-pack.js';
import {
  CHANGE_STATUSES,
  type ManagerChangesTable,
  type PositionChange,
} from '../../../../../holdings/tables.js';
import { type BackgroundPacking, withPacking } from './background-packing.js';
import { CusipNumbers } from './cusip-numbers.js';
import {
  type EquityChanges,
  EquityComparer,
  type EquityPositions,
  equityPositionsOf,
  NO_POSITIONS,
} from './equity-changes.js';
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
/** A manager quarter's equity positions by CUSIP (the as-of answers' shape). */
export type Portfolio = Map<string, Held>;

/** The map's value for `key`, created first when absent. */
function entry<K, V>(map: Map<K, V>, key: K, create: () => V): V {
  let value = map.get(key);
  if (value === undefined) {
    value = create();
    map.set(key, value);
  }
  return value;
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

/** One manager quarter's changes, in its changes page's order, as objects (one manager's answer). */
export function compare(c: Comparison, factorOf: (from: string, to: string, cusip: string) => number | null) {
  const numbers = new CusipNumbers();
  const after = equityPositionsOf(c.after, numbers);
  const before = equityPositionsOf(c.before, numbers);
  let factors: Map<number, number> | null = null;
  if (c.previous !== null) {
    factors = new Map();
    for (let n = 0; n < numbers.cusips.length; n++) {
      const factor = factorOf(c.previous, c.quarter, numbers.cusips[n] as string);
      if (factor !== null) factors.set(n, factor);
    }
  }
  const changes = new EquityComparer(numbers).compare({
    before,
    after,
    totalBefore: c.totalBefore,
    totalAfter: c.totalAfter,
    factors,
  });
  return Array.from({ length: changes.count }, (_, r): PositionChange => {
    const factor = changes.splitFactor[r] as number;
    return {
      cusip: numbers.cusips[changes.cusips[r] as number] as string,
      status: CHANGE_STATUSES[changes.status[r] as number] as PositionChange['status'],
      shares_before: changes.sharesBefore[r] as number,
      shares_after: changes.sharesAfter[r] as number,
      value_before: changes.valueBefore[r] as number,
      value_after: changes.valueAfter[r] as number,
      weight_before: changes.weightBefore[r] as number,
      weight_after: changes.weightAfter[r] as number,
      split_factor: Number.isNaN(factor) ? null : factor,
    };
  });
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

/** Split factors between two quarters by CUSIP number (`from|to` → number → factor). */
async function splitFactors(executor: Executor, numbers: CusipNumbers) {
  const spans = await executor.selectFrom('split_spans').selectAll().execute();
  const factors = new Map<string, Map<number, number>>();
  for (const s of spans)
    entry(factors, `${s.from_quarter}|${s.to_quarter}`, () => new Map()).set(
      numbers.numberOf(s.cusip),
      Number(s.factor),
    );
  const none: ReadonlyMap<number, number> = new Map();
  return (from: string, to: string) => factors.get(`${from}|${to}`) ?? none;
}

/**
 * Packed portfolios the derivation still holds in memory, by `cik|quarter`: those it took from the
 * load's sums (the bytes it wrote to `manager_portfolios`), so the pass need not read them back.
 */
export type HeldPortfolios = ReadonlyMap<string, Uint8Array>;

/**
 * The equity positions of a batch of managers in some quarters (cik → quarter → positions), from
 * their packed portfolios (written by the same derivation, before the changes): one row per manager
 * quarter instead of one per position; those `held` in memory are not read.
 */
async function portfolios(
  executor: Executor,
  numbers: CusipNumbers,
  ciks: readonly string[],
  quarters: readonly string[],
  held: HeldPortfolios,
) {
  const rows: { cik: string; quarter: string; positions: Uint8Array }[] = [];
  const unread = new Set<string>();
  for (const cik of ciks)
    for (const quarter of quarters) {
      const positions = held.get(`${cik}|${quarter}`);
      if (positions) rows.push({ cik, quarter, positions });
      else unread.add(cik);
    }
  if (unread.size > 0) {
    const read = await executor
      .selectFrom('manager_portfolios')
      .select(['cik', 'quarter', 'positions'])
      .where('cik', 'in', [...unread])
      .where('quarter', 'in', quarters)
      .execute();
    for (const row of read) if (!held.has(`${row.cik}|${row.quarter}`)) rows.push(row);
  }
  const byCik = new Map<string, Map<string, EquityPositions>>();
  for (const row of rows) {
    const packed = unpackPortfolio(row.positions);
    let count = 0;
    for (let i = 0; i < packed.count; i++) if (isEquityCode(packed.codes[i] as number)) count++;
    const equity = {
      count,
      cusips: new Int32Array(count),
      shares: new Float64Array(count),
      values: new Float64Array(count),
    };
    for (let i = 0, k = 0; i < packed.count; i++) {
      if (!isEquityCode(packed.codes[i] as number)) continue;
      equity.cusips[k] = numbers.numberAt(packed.cusipBytes, CUSIP_BYTES * i);
      equity.shares[k] = packed.shares[i] as number;
      equity.values[k] = packed.values[i] as number;
      k++;
    }
    entry(byCik, row.cik, () => new Map()).set(row.quarter, equity);
  }
  return byCik;
}

/**
 * The equity portfolios of the quarter the pass compared last (cik → positions): the next quarter's
 * "before" side for every manager that filed both, so each portfolio is read and numbered once.
 */
interface Kept {
  quarter: string;
  portfolios: Map<string, EquityPositions>;
}

interface ManagerQuarter {
  cik: string;
  quarter: string;
  total: number;
  previous: { quarter: string; total: number } | undefined;
}

/** A manager quarter's changes, packed in their order (no split factor: NaN). */
function packed(changes: EquityChanges, numbers: CusipNumbers, totalBefore: number, totalAfter: number) {
  const columns: Float64Array[] = [];
  columns[SHARES_BEFORE] = changes.sharesBefore;
  columns[SHARES_AFTER] = changes.sharesAfter;
  columns[VALUE_BEFORE] = changes.valueBefore;
  columns[VALUE_AFTER] = changes.valueAfter;
  columns[SPLIT_FACTOR] = changes.splitFactor;
  return packChanges(MANAGER_CHANGES, {
    count: changes.count,
    head: [totalBefore, totalAfter],
    numbers: (c, into) => {
      const column = columns[c];
      if (!column) throw new Error(`no column ${c} in packed changes`);
      into.set(column);
    },
    statuses: (into) => into.set(changes.status),
    keys: (into) => {
      const w = MANAGER_CHANGES.keyBytes;
      for (let r = 0; r < changes.count; r++) numbers.writeCusip(changes.cusips[r] as number, into, w * r);
    },
  });
}

/**
 * One quarter's changes, packed, with their counts per manager and per security; returns the
 * quarter's portfolios when asked to `keep` them for the next quarter.
 */
async function writeQuarter(
  handle: DbHandle,
  executor: Executor,
  managers: readonly ManagerQuarter[],
  numbers: CusipNumbers,
  factorsOf: (from: string, to: string) => ReadonlyMap<number, number>,
  smart: SmartMoneyTally,
  kept: Kept | null,
  keep: boolean,
  packing: BackgroundPacking,
  inMemory: HeldPortfolios,
): Promise<Kept | null> {
  const comparer = new EquityComparer(numbers);
  const holders = new QuarterHolders(numbers);
  const managerRows: ManagerChangesTable[] = [];
  const packedRows = new BatchedInsert(handle, executor, 'changes_by_manager', BYTES_PER_WRITE);
  const keeping: Kept | null = keep
    ? { quarter: managers[0]?.quarter as string, portfolios: new Map() }
    : null;
  const keptBefore = (m: ManagerQuarter) => kept !== null && m.previous?.quarter === kept.quarter;
  for (let start = 0; start < managers.length; start += MANAGERS_PER_READ) {
    const batch = managers.slice(start, start + MANAGERS_PER_READ);
    const quarters = new Set(
      batch.flatMap((m) => (m.previous && !keptBefore(m) ? [m.quarter, m.previous.quarter] : [m.quarter])),
    );
    const held = await portfolios(
      executor,
      numbers,
      batch.map((m) => m.cik),
      [...quarters],
      inMemory,
    );
    for (const manager of batch) {
      const { cik, quarter, total, previous } = manager;
      const portfolioOf = (q: string) => held.get(cik)?.get(q) ?? NO_POSITIONS;
      let before = NO_POSITIONS;
      if (previous && kept && keptBefore(manager)) {
        before = kept.portfolios.get(cik) ?? NO_POSITIONS;
        kept.portfolios.delete(cik);
      } else if (previous) before = portfolioOf(previous.quarter);
      const after = portfolioOf(quarter);
      keeping?.portfolios.set(cik, after);
      const totalBefore = previous?.total ?? 0;
      const changes = comparer.compare({
        before,
        after,
        totalBefore,
        totalAfter: total,
        factors: previous ? factorsOf(previous.quarter, quarter) : null,
      });
      smart.add(quarter, previous?.quarter ?? null, changes, numbers.cusips);
      const counts = [0, 0, 0, 0, 0];
      let valueBefore = 0;
      let valueAfter = 0;
      for (let r = 0; r < changes.count; r++) {
        const status = changes.status[r] as number;
        counts[status] = (counts[status] as number) + 1;
        valueBefore += changes.valueBefore[r] as number;
        valueAfter += changes.valueAfter[r] as number;
      }
      holders.add(cik, changes);
      // biome-ignore format: one row
      managerRows.push({ cik, quarter, previous_quarter: previous?.quarter ?? null, ...countColumns(counts),
        value_before: valueBefore, value_after: valueAfter });
      const bytes = packed(changes, numbers, totalBefore, total);
      await packedRows.add({ cik, quarter, changes: bytes }, bytes.length);
    }
  }
  // The holders go to the packing worker first: the last rows are written while it packs them.
  // (Holding all of a quarter's packed changes for this, ~160 MB at 4 M rows a quarter, raised a
  // two-quarter load's peak memory by ~100 MB for no measurable gain.)
  await packing.pack('holders', holders.take(managers[0]?.quarter as string));
  await packedRows.flush();
  await insertRows(handle, 'manager_changes', managerRows, executor);
  return keeping;
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
  packing: BackgroundPacking,
  held: HeldPortfolios = new Map(),
): Promise<void> {
  for (const table of CHANGE_TABLES) await executor.deleteFrom(table).where('quarter', '>=', from).execute();
  const filed = await managerQuarters(executor);
  // One numbering of CUSIPs for every quarter of the pass: a comparison spans two.
  const numbers = new CusipNumbers();
  const factorsOf = await splitFactors(executor, numbers);
  const byQuarter = new Map<string, ManagerQuarter[]>();
  for (const [cik, quarters] of filed) {
    quarters.forEach(({ quarter, total }, i) => {
      if (quarter >= from)
        entry(byQuarter, quarter, () => []).push({ cik, quarter, total, previous: quarters[i - 1] });
    });
  }
  const quarters = [...byQuarter.keys()].sort();
  let kept: Kept | null = null;
  for (const [i, quarter] of quarters.entries()) {
    const managers = byQuarter.get(quarter) as ManagerQuarter[];
    const keep = i + 1 < quarters.length;
    // biome-ignore format: one call
    kept = await writeQuarter(handle, executor, managers, numbers, factorsOf, smart, kept, keep, packing, held);
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
  const first = quarters[0];
  await withPacking(handle, executor, (packing) =>
    writeChanges(handle, executor, first, new SmartMoneyTally(quarters), packing),
  );
  return true;
}
