/**
 * deriveHoldings(handle, quarters): recomputes every derived holdings table from the raw 13F
 * tables. This is THE entry point for anything that loads 13F data (the demo builder, the SEC
 * ingest): load `filings_13f` + `info_tables_13f` (rows as filed), optionally `securities`, then
 * call deriveHoldings with the quarters touched, inside the same transaction as the load.
 *
 * Steps (SPEC §3): resolve each manager's quarter (latest 13F-HR, RESTATEMENT replaces, NEW
 * HOLDINGS adds, 13F-NT ignored) → positions (rows summed per (CUSIP, share type, put/call),
 * values normalised to thousands of USD by filing date, not rounded), stored packed per manager
 * quarter (manager_portfolios) and per security quarter (security_positions), with each manager's
 * and each security's totals summed in the same pass → manager_quarters (timeline) →
 * security_quarters (holders, crowded) → holdings_quarters → managers → advisers' CIKs (from the
 * cover pages' CRD numbers).
 * Then, from the earliest quarter derived on: splits (splits.ts) and changes (changes.ts), since a
 * quarter's changes compare it with the one before, and smart money (two latest quarters overall)
 * tallied by the same pass.
 *
 * A quarter is derived in one pass over its applied filings' rows, managers in CIK order and a
 * batch of filings at a time; no position is a row of its own (docs/ingest-holdings.md).
 */
import type { DbHandle } from '../../../../../db/connect.js';
import type { FilingSums } from '../filing-sums.js';
import type { InfoRowFields } from '../info-row-codec.js';
import { linkAdviserCiks } from './adviser-ciks.js';
import { type BackgroundPacking, withPacking } from './background-packing.js';
import { type HeldPortfolios, writeChanges } from './changes.js';
import { DailyCrowding } from './crowding.js';
import { CusipNumbers } from './cusip-numbers.js';
import type { Executor } from './executor.js';
import { FILINGS_PER_READ, readFilingRows } from './filing-rows.js';
import { PortfolioWriter } from './portfolios.js';
import { appliedFilings, managerPositions, writeAppliedFilings } from './positions.js';
import { type FilingHeader, type ResolvedQuarter, resolveQuarters } from './resolve.js';
import { writeSeasonSummaries } from './season.js';
import {
  addMissingSecurities,
  loadSecurityMaster,
  noteFiledNames,
  type SecurityMaster,
  UnknownSecurities,
} from './securities.js';
import { SmartMoneyTally } from './smart-money.js';
import { writeSplits } from './splits.js';
import {
  filingTotals,
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
  'crowded_days',
  'manager_portfolios',
  'applied_filings_13f',
  'security_positions',
  'manager_quarters',
  'security_quarters',
] as const;

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
  /** The packed portfolios taken from the load's sums, by `cik|quarter` (for the changes pass). */
  portfolios: Map<string, Uint8Array>;
  /** Manager quarters whose positions came from the load's sums. */
  summed: number;
}

/** What deriveHoldings did: manager quarters derived, and how many from the load's sums. */
export interface DerivationCounts {
  managerQuarters: number;
  summed: number;
}

/**
 * What a load hands the derivation: its filings' positions summed while they were read. Manager
 * quarters that are exactly one such filing use them as they are.
 */
export interface LoadedSums {
  readonly sums: FilingSums;
  /** Per quarter, the names filed in the rows of the `named` filings. */
  readonly names: ReadonlyMap<string, UnknownSecurities>;
  readonly named: ReadonlySet<string>;
}

/** Positions, manager totals and security totals of one quarter, in one pass over its rows. */
async function deriveQuarter(
  handle: DbHandle,
  executor: Executor,
  quarter: string,
  master: SecurityMaster,
  loaded: LoadedSums | undefined,
  packing: BackgroundPacking,
): Promise<DerivedQuarter> {
  const filings: FilingHeader[] = await executor
    .selectFrom('filings_13f')
    .select(['accession_number', 'cik', 'quarter', 'filing_date', 'form_type', 'amendment_type'])
    .where('quarter', '=', quarter)
    .execute();
  const resolved = resolveQuarters(filings).sort((a, b) => (a.cik < b.cik ? -1 : a.cik > b.cik ? 1 : 0));
  await writeAppliedFilings(handle, executor, resolved);

  const summed = (r: ResolvedQuarter) =>
    r.additions.length === 0 ? loaded?.sums.view(r.base.accession_number) : undefined;
  const totals = new Map<string, ManagerTotals>();
  const held = new Map<string, Uint8Array>();
  // One numbering of the quarter's CUSIPs, for the security totals and the crowding.
  const numbers = new CusipNumbers();
  const securities = new SecurityTotals(numbers);
  // Names come from every 13F-HR filing of the quarter: collected by the load while it read them,
  // from raw rows for the others (applied ones as their positions are summed below).
  const unknown = new UnknownSecurities(master);
  const loadedNames = loaded?.names.get(quarter);
  if (loadedNames) unknown.noteAll(loadedNames);
  const applied = new Set(resolved.flatMap((r) => appliedFilings(r).map((f) => f.accession_number)));
  const unnamed = filings.filter(
    (f) =>
      f.form_type.startsWith('13F-HR') &&
      !applied.has(f.accession_number) &&
      !loaded?.named.has(f.accession_number),
  );
  await noteFiledNames(
    executor,
    unnamed.map((f) => f.accession_number),
    unknown,
  );
  const noteRow = (cusip: string, row: InfoRowFields) => unknown.note(cusip, row);
  const crowding = new DailyCrowding(numbers);
  const filingsOf = new Map<string, FilingHeader[]>();
  for (const filing of filings) filingsOf.set(filing.cik, [...(filingsOf.get(filing.cik) ?? []), filing]);
  const portfolios = new PortfolioWriter(handle, executor);
  let summedCount = 0;
  for (const batch of batches(resolved)) {
    const fromRows = batch.filter((r) => !summed(r));
    const accessions = fromRows.flatMap((r) => appliedFilings(r).map((f) => f.accession_number));
    const rows = await readFilingRows(executor, accessions);
    for (const managerQuarter of batch) {
      const key = `${managerQuarter.cik}|${quarter}`;
      const view = summed(managerQuarter);
      const day = crowding.effectiveDay(managerQuarter, filingsOf.get(managerQuarter.cik) ?? []);
      if (view) {
        crowding.addView(day, view, securities.addFiling(managerQuarter.cik, view));
        await portfolios.addView(quarter, managerQuarter.cik, view);
        held.set(key, view.portfolio);
        totals.set(key, filingTotals(view));
        summedCount += 1;
        continue;
      }
      const positions = managerPositions(managerQuarter, (a) => rows.get(a) ?? [], noteRow);
      crowding.addPositions(day, positions, securities.addManager(managerQuarter.cik, positions));
      await portfolios.addPositions(quarter, managerQuarter.cik, positions);
      totals.set(key, managerTotals(positions));
    }
  }
  await portfolios.flush();
  await crowding.write(handle, executor, quarter);
  await securities.packPositions(packing, quarter);
  await addMissingSecurities(handle, executor, unknown, master, (cusip) => securities.holds(cusip));
  await securities.write(handle, executor, quarter, master);
  return { resolved, totals, portfolios: held, summed: summedCount };
}

/**
 * Splits, changes and the season summaries of every loaded quarter from `from` on, and smart money
 * (tallied by the changes pass: the latest quarter is always from `from` on).
 */
async function deriveChanges(
  handle: DbHandle,
  executor: Executor,
  from: string,
  packing: BackgroundPacking,
  held: HeldPortfolios,
): Promise<void> {
  const rows = await executor.selectFrom('holdings_quarters').select('quarter').orderBy('quarter').execute();
  const quarters = rows.map((row) => row.quarter);
  await writeSplits(handle, executor, quarters, from);
  const smart = new SmartMoneyTally(quarters);
  await writeChanges(handle, executor, from, smart, packing, held);
  await smart.write(handle, executor);
  await writeSeasonSummaries(handle, executor, quarters);
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
  loaded?: LoadedSums,
): Promise<DerivationCounts> {
  const list = (await quartersToDerive(executor, quarters)).sort();
  for (const table of PER_QUARTER_TABLES) {
    if (list.length > 0) await executor.deleteFrom(table).where('quarter', 'in', list).execute();
  }
  const master = await loadSecurityMaster(executor);
  const resolved: ResolvedQuarter[] = [];
  const totals = new Map<string, ManagerTotals>();
  const held = new Map<string, Uint8Array>();
  let summed = 0;
  await withPacking(handle, executor, async (packing) => {
    for (const quarter of list) {
      const derived = await deriveQuarter(handle, executor, quarter, master, loaded, packing);
      for (const managerQuarter of derived.resolved) resolved.push(managerQuarter);
      for (const [key, value] of derived.totals) totals.set(key, value);
      for (const [key, value] of derived.portfolios) held.set(key, value);
      summed += derived.summed;
    }
    await writeManagerQuarters(handle, executor, resolved, totals);
    await writeHoldingsQuarters(executor);
    if (list[0] !== undefined) await deriveChanges(handle, executor, list[0], packing, held);
    // While the last packing job runs.
    await writeManagers(handle, executor);
    await linkAdviserCiks(executor);
  });
  return { managerQuarters: resolved.length, summed };
}
