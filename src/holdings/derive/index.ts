/**
 * deriveHoldings(handle, quarters): recomputes every derived holdings table from the raw 13F
 * tables. This is THE entry point for anything that loads 13F data (the demo builder, the SEC
 * ingest): load `filings_13f` + `info_rows_13f` (values as filed), optionally `securities`, then
 * call deriveHoldings with the quarters touched, inside the same transaction as the load.
 *
 * Steps (SPEC §3): resolve each manager's quarter (latest 13F-HR, RESTATEMENT replaces, NEW
 * HOLDINGS adds, 13F-NT ignored) → positions (rows summed per (CUSIP, share type, put/call),
 * values normalised to thousands of USD by filing date, not rounded) → manager_quarters (timeline)
 * → security_quarters (holders, crowded) → holdings_quarters → managers → smart money (two latest
 * quarters overall).
 */
import type { DbHandle } from '../../db/connect.js';
import type { Executor } from './executor.js';
import { addMissingSecurities, writeAppliedFilings, writePositions } from './positions.js';
import { type FilingHeader, type ResolvedQuarter, resolveQuarters } from './resolve.js';
import { writeSmartMoney } from './smart-money.js';
import {
  writeHoldingsQuarters,
  writeManagerQuarters,
  writeManagers,
  writeSecurityQuarters,
} from './totals.js';

export type { Executor } from './executor.js';
export { type FilingHeader, type ResolvedQuarter, resolveManagerQuarter } from './resolve.js';

const PER_QUARTER_TABLES = [
  'applied_filings_13f',
  'positions',
  'manager_quarters',
  'security_quarters',
] as const;

async function quartersToDerive(executor: Executor, quarters?: readonly string[]): Promise<string[]> {
  if (quarters) return [...new Set(quarters)];
  const rows = await executor.selectFrom('filings_13f').select('quarter').distinct().execute();
  return rows.map((row) => row.quarter);
}

/** Positions and security totals of one quarter; returns its resolved manager quarters. */
async function deriveQuarter(
  handle: DbHandle,
  executor: Executor,
  quarter: string,
): Promise<ResolvedQuarter[]> {
  for (const table of PER_QUARTER_TABLES) {
    await executor.deleteFrom(table).where('quarter', '=', quarter).execute();
  }
  const filings: FilingHeader[] = await executor
    .selectFrom('filings_13f')
    .select(['accession_number', 'cik', 'quarter', 'filing_date', 'form_type', 'amendment_type'])
    .where('quarter', '=', quarter)
    .execute();
  const resolved = resolveQuarters(filings);
  await writeAppliedFilings(handle, executor, resolved);
  await writePositions(executor, [quarter]);
  await addMissingSecurities(executor, [quarter]);
  await writeSecurityQuarters(handle, executor, [quarter]);
  return resolved;
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
  const list = await quartersToDerive(executor, quarters);
  const resolved: ResolvedQuarter[] = [];
  for (const quarter of list.sort()) {
    for (const quarterOfManager of await deriveQuarter(handle, executor, quarter))
      resolved.push(quarterOfManager);
  }
  // Once for all quarters: when that is every quarter, SQLite aggregates in index order.
  if (list.length > 0) {
    const everyQuarter = (await quartersToDerive(executor)).every((quarter) => list.includes(quarter));
    await writeManagerQuarters(handle, executor, resolved, list, everyQuarter);
  }
  await writeHoldingsQuarters(executor);
  await writeManagers(handle, executor);
  await writeSmartMoney(handle, executor);
}
