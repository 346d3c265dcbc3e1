/**
 * deriveHoldings(handle, quarters): recomputes every derived holdings table from the raw 13F
 * tables. This is THE entry point for anything that loads 13F data (the demo builder, the SEC
 * ingest): load `filings_13f` + `info_tables_13f` (rows as filed), optionally `securities`, then
 * call deriveHoldings with the quarters touched, inside the same transaction as the load.
 *
 * Steps (SPEC §3): resolve each manager's quarter (latest 13F-HR, RESTATEMENT replaces, NEW
 * HOLDINGS adds, 13F-NT ignored) → positions (rows summed per (CUSIP, share type, put/call),
 * values normalised to thousands of USD by filing date, not rounded), with each manager's and
 * each security's totals summed in the same pass → manager_quarters (timeline) → security_quarters
 * (holders, crowded) → holdings_quarters → managers → advisers' CIKs (from the cover pages' CRD
 * numbers) → smart money (two latest quarters overall).
 *
 * A quarter is derived in one pass over its applied filings' rows, managers in CIK order and a
 * batch of filings at a time, so positions are written in index order and never sorted by SQL.
 */
import type { DbHandle } from '../../db/connect.js';
import type { InfoRowFields } from '../info-tables.js';
import { linkAdviserCiks } from './adviser-ciks.js';
import { withIndexesDeferredIfEmpty } from './deferred-indexes.js';
import type { Executor } from './executor.js';
import { FILINGS_PER_READ, readFilingRows } from './filing-rows.js';
import {
  appliedFilings,
  insertPositions,
  managerPositions,
  type Position,
  writeAppliedFilings,
} from './positions.js';
import { type FilingHeader, type ResolvedQuarter, resolveQuarters } from './resolve.js';
import {
  addMissingSecurities,
  loadSecurityMaster,
  type SecurityMaster,
  UnknownSecurities,
} from './securities.js';
import { writeSmartMoney } from './smart-money.js';
import {
  type ManagerTotals,
  managerTotals,
  SecurityTotals,
  writeHoldingsQuarters,
  writeManagerQuarters,
  writeManagers,
} from './totals.js';

export type { Executor } from './executor.js';
export { type FilingHeader, type ResolvedQuarter, resolveManagerQuarter } from './resolve.js';

const PER_QUARTER_TABLES = [
  'applied_filings_13f',
  'positions',
  'manager_quarters',
  'security_quarters',
] as const;

/** Positions are written in batches of about this many rows. */
const POSITIONS_PER_WRITE = 20_000;

async function quartersToDerive(executor: Executor, quarters?: readonly string[]): Promise<string[]> {
  if (quarters) return [...new Set(quarters)];
  const rows = await executor.selectFrom('filings_13f').select('quarter').distinct().execute();
  return rows.map((row) => row.quarter);
}

/** Consecutive groups of manager quarters whose applied filings fit one read. */
function* batches(resolved: readonly ResolvedQuarter[]): Generator<ResolvedQuarter[]> {
  let batch: ResolvedQuarter[] = [];
  let filings = 0;
  for (const quarter of resolved) {
    const count = appliedFilings(quarter).length;
    if (batch.length > 0 && filings + count > FILINGS_PER_READ) {
      yield batch;
      batch = [];
      filings = 0;
    }
    batch.push(quarter);
    filings += count;
  }
  if (batch.length > 0) yield batch;
}

interface DerivedQuarter {
  resolved: ResolvedQuarter[];
  totals: Map<string, ManagerTotals>;
}

/** Positions, manager totals and security totals of one quarter, in one pass over its rows. */
async function deriveQuarter(
  handle: DbHandle,
  executor: Executor,
  quarter: string,
  master: SecurityMaster,
): Promise<DerivedQuarter> {
  const filings: FilingHeader[] = await executor
    .selectFrom('filings_13f')
    .select(['accession_number', 'cik', 'quarter', 'filing_date', 'form_type', 'amendment_type'])
    .where('quarter', '=', quarter)
    .execute();
  const resolved = resolveQuarters(filings).sort((a, b) => (a.cik < b.cik ? -1 : a.cik > b.cik ? 1 : 0));
  await writeAppliedFilings(handle, executor, resolved);

  const totals = new Map<string, ManagerTotals>();
  const securities = new SecurityTotals();
  const unknown = new UnknownSecurities(master);
  const noteRow = (cusip: string, row: InfoRowFields) => unknown.note(cusip, row);
  let pending: Position[] = [];
  for (const batch of batches(resolved)) {
    const accessions = batch.flatMap((r) => appliedFilings(r).map((f) => f.accession_number));
    const rows = await readFilingRows(executor, accessions);
    for (const managerQuarter of batch) {
      const positions = managerPositions(managerQuarter, (a) => rows.get(a) ?? [], noteRow);
      totals.set(`${managerQuarter.cik}|${quarter}`, managerTotals(positions));
      securities.addManager(positions);
      for (const position of positions) pending.push(position);
    }
    if (pending.length >= POSITIONS_PER_WRITE) {
      await insertPositions(handle, executor, pending);
      pending = [];
    }
  }
  await insertPositions(handle, executor, pending);
  await addMissingSecurities(handle, executor, unknown, master);
  await securities.write(handle, executor, quarter, master);
  return { resolved, totals };
}

/**
 * Recomputes the derived tables for `quarters` (`YYYY-QN`; default: every quarter with filings),
 * then the cross-quarter tables (holdings_quarters, managers, smart money). Pass the load's
 * transaction as `executor` so the new raw rows and the derived rows appear together.
 */
export async function deriveHoldings(
  handle: DbHandle,
  quarters?: readonly string[],
  executor: Executor = handle.db,
): Promise<void> {
  const list = (await quartersToDerive(executor, quarters)).sort();
  for (const table of PER_QUARTER_TABLES) {
    if (list.length > 0) await executor.deleteFrom(table).where('quarter', 'in', list).execute();
  }
  const master = await loadSecurityMaster(executor);
  const resolved: ResolvedQuarter[] = [];
  const totals = new Map<string, ManagerTotals>();
  await withIndexesDeferredIfEmpty(handle, executor, 'positions', async () => {
    for (const quarter of list) {
      const derived = await deriveQuarter(handle, executor, quarter, master);
      for (const managerQuarter of derived.resolved) resolved.push(managerQuarter);
      for (const [key, value] of derived.totals) totals.set(key, value);
    }
  });
  await writeManagerQuarters(handle, executor, resolved, totals);
  await writeHoldingsQuarters(executor);
  await writeManagers(handle, executor);
  await linkAdviserCiks(executor);
  await writeSmartMoney(handle, executor);
}
