/**
 * The holdings part of the demo dataset, produced as RAW 13F filings and Form ADV records that go
 * through the same deriveHoldings() as real SEC data, each filing's positions summed as it is
 * generated, as the SEC load sums them while reading. One transaction replaces the holdings
 * tables, bumps the dataset version and records sec-13f, sec-advisers and sec-securities as demo.
 *
 * Scales: `small` (default) = 8 quarters 2024-Q4…2026-Q3, ~1,500 managers, ~5,000 securities,
 * 15,000 advisers; `full` = 4 quarters 2025-Q4…2026-Q3, ~9,000 managers, ~3.5 million positions
 * per quarter, 15,000 advisers (rows are streamed to the database in batches).
 */
import type { Kysely, Transaction } from 'kysely';
import { insertRows, withBulkLoadPragmas } from '../../db/bulk.js';
import type { DbHandle } from '../../db/connect.js';
import { bumpDatasetVersion } from '../../db/dataset.js';
import type { Database } from '../../db/tables.js';
import { nextQuarter, quarterEnd } from '../../holdings/identifiers.js';
import { rebuildEntityLinks } from '../../ingest/derived/identity/entity-links.js';
import { readOverrides } from '../../ingest/derived/identity/overrides.js';
import { deriveHoldings } from '../../ingest/sources/sec/holdings/derive/index.js';
import { addDays } from '../../time/calendar.js';
import { clearPart, recordDemoSource } from '../provenance.js';
import type { DemoOptions, DemoPart, DemoScale } from '../types.js';
import { generateAdvisers } from './advisers.js';
import { batchingSink } from './filing-sink.js';
import { generateQuarter, resetAccessions } from './filings.js';
import {
  applyDemoIdentity,
  type DemoIdentity,
  listedHoldingCompanies,
  nameMatchedAdvisers,
} from './identity.js';
import { generateManagers } from './managers.js';
import { Rng } from './random.js';
import { generateUniverse } from './universe.js';

const SCALES = {
  small: {
    firstQuarter: '2024-Q4',
    quarters: 8,
    securities: 5_000,
    count: 1_500,
    medianPositions: 10,
    maxPositions: 2_500,
    advisers: 15_000,
  },
  full: {
    firstQuarter: '2025-Q4',
    quarters: 4,
    securities: 30_000,
    count: 9_000,
    medianPositions: 280,
    maxPositions: 12_000,
    advisers: 15_000,
  },
} as const satisfies Record<DemoScale, unknown>;

/** Advisers that share a CIK (and name) with a 13F manager. */
const SHARED_CIK_ADVISERS = 300;

/** Children first; derived tables are rebuilt by deriveHoldings. */
// biome-ignore format: the list reads best as a block
const TABLES = ['crowded_days', 'manager_portfolios', 'security_positions', 'security_latest', 'filing_progress', 'filing_days', 'manager_changes', 'changes_by_manager', 'security_changes', 'holders_by_security', 'security_splits', 'split_spans', 'smart_money', 'smart_money_summary', 'holdings_quarters', 'security_quarters', 'manager_quarters',
  'positions', 'applied_filings_13f', 'info_tables_13f', 'filings_13f', 'managers', 'securities', 'advisers', 'entity_link_candidates', 'entity_links', 'sec_registrants'] as const;
const SOURCES = ['sec-13f', 'sec-advisers', 'sec-securities', 'sec-registrants'] as const;

/**
 * The day the demo's data stops: 38 days into its last quarter's 45-day filing season, so about
 * three managers in ten have not filed yet and freshness shows an open season (never after today).
 */
export function demoCutoff(quarters: readonly string[]): string {
  const cutoff = addDays(quarterEnd(quarters.at(-1) as string), DEMO_SEASON_DAYS);
  const today = new Date().toISOString().slice(0, 10);
  return cutoff < today ? cutoff : today;
}

const DEMO_SEASON_DAYS = 38;

function quarterLabels(first: string, count: number): string[] {
  const labels = [first];
  while (labels.length < count) labels.push(nextQuarter(labels.at(-1) as string));
  return labels;
}

/** The stock splits the demo applies, by CUSIP and quarter: the ground truth for the split detection. */
export function demoSplits(seed: number, scale: DemoScale) {
  const { firstQuarter, quarters: count, securities } = SCALES[scale];
  const quarters = quarterLabels(firstQuarter, count);
  const universe = generateUniverse(Rng.derive(seed, 'universe'), securities, count);
  return universe.splits.map((split) => ({
    cusip: (universe.securities[split.index] as { cusip: string }).cusip,
    quarter: quarters[split.q] as string,
    factor: split.factor,
  }));
}

export const buildHoldingsDemo: DemoPart = async (handle: DbHandle, options: DemoOptions) => {
  const generated = await generateHoldings(handle.db, options);
  // Sorting for the derivation's GROUP BYs stays in memory instead of spilling to temp files.
  await withBulkLoadPragmas(handle, () =>
    handle.db.transaction().execute(async (trx) => {
      const removed = await clearHoldings(trx);
      const written = await writeHoldings(handle, trx, options, generated);
      await finishHoldings(handle, trx, options, written, removed);
    }),
  );
};

/**
 * The generated managers, securities, advisers and identity of the holdings demo. The listed holding
 * companies are read from the institutions `db` sees (the banking demo's).
 */
export async function generateHoldings(db: Kysely<Database>, options: DemoOptions): Promise<Generated> {
  const started = Date.now();
  const scale = SCALES[options.scale];
  const quarters = quarterLabels(scale.firstQuarter, scale.quarters);
  const universe = generateUniverse(Rng.derive(options.seed, 'universe'), scale.securities, scale.quarters);
  const managers = generateManagers(Rng.derive(options.seed, 'managers'), scale, scale.quarters);
  const advisers = generateAdvisers(
    Rng.derive(options.seed, 'advisers'),
    scale.advisers,
    managers,
    SHARED_CIK_ADVISERS,
  );
  const listed = await listedHoldingCompanies(db);
  const identity = applyDemoIdentity(listed, universe.securities, managers);
  nameMatchedAdvisers(advisers, managers, SHARED_CIK_ADVISERS);
  return { quarters, universe, managers, advisers, identity, started };
}

export interface Generated {
  quarters: string[];
  universe: ReturnType<typeof generateUniverse>;
  managers: ReturnType<typeof generateManagers>;
  advisers: ReturnType<typeof generateAdvisers>;
  identity: DemoIdentity;
  started: number;
}

/** What writeHoldings leaves for finishHoldings: plain data, so it can come from a worker thread. */
export interface WrittenHoldings {
  started: number;
  generatedAt: number;
  derivedAt: number;
  managers: number;
  filings: number;
  rows: number;
  summed: number;
  managerQuarters: number;
  securities: number;
  advisers: number;
  registrants: DemoIdentity['registrants'];
  links: DemoIdentity['overrides']['links'];
}

/** Empties the holdings tables and forgets their sources; returns the rows each held. */
export const clearHoldings = (trx: Transaction<Database>) => clearPart(trx, TABLES, SOURCES);

/** The raw filings, their derivation, securities and advisers: everything but the identity graph. */
export async function writeHoldings(
  handle: DbHandle,
  trx: Transaction<Database>,
  options: DemoOptions,
  { quarters, universe, managers, advisers, identity, started }: Generated,
): Promise<WrittenHoldings> {
  resetAccessions();
  const securities = universe.securities.map(({ cusip, issuer, title_of_class, ticker }) => ({
    cusip,
    issuer,
    title_of_class,
    ticker,
  }));
  await insertRows(handle, 'securities', securities, trx);
  await insertRows(handle, 'advisers', advisers, trx);
  const sink = batchingSink(handle, trx);
  const rng = Rng.derive(options.seed, 'filings');
  for (const [q, quarter] of quarters.entries())
    await generateQuarter(rng, managers, universe, q, quarter, sink, demoCutoff(quarters));
  const loaded = await sink.finish();
  const generatedAt = Date.now();
  const derived = await deriveHoldings(handle, quarters, trx, loaded.sums);
  return {
    started,
    generatedAt,
    derivedAt: Date.now(),
    managers: managers.length,
    filings: loaded.filings,
    rows: loaded.rows,
    summed: derived.summed,
    managerQuarters: derived.managerQuarters,
    securities: securities.length,
    advisers: advisers.length,
    registrants: identity.registrants,
    links: identity.overrides.links,
  };
}

/** The identity graph over what is loaded (banks included), the version bump and the provenance. */
export async function finishHoldings(
  handle: DbHandle,
  trx: Transaction<Database>,
  options: DemoOptions,
  written: WrittenHoldings,
  removed: ReadonlyMap<string, number>,
): Promise<void> {
  const { started, registrants } = written;
  const notes = `seed ${options.seed}, scale ${options.scale}`;
  await insertRows(handle, 'sec_registrants', registrants, trx);
  const fileOverrides = readOverrides();
  const graph = await rebuildEntityLinks(handle, trx, {
    links: [...fileOverrides.links, ...written.links],
    vetoes: fileOverrides.vetoes,
  });
  options.log?.(
    `demo holdings: ${written.managers} managers, ${written.filings} filings, ${written.rows} information-table rows (generated in ${written.generatedAt - started} ms, derived in ${written.derivedAt - written.generatedAt} ms, ${written.summed} of ${written.managerQuarters} manager quarters from the positions summed while generating), ${written.securities} securities, ${written.advisers} advisers, ${registrants.length} registrants, ${graph.links} identity links`,
  );
  await bumpDatasetVersion(trx);
  await recordDemoSource(trx, 'sec-13f', written.rows, started, notes, removed);
  await recordDemoSource(trx, 'sec-advisers', written.advisers, started, notes, removed);
  await recordDemoSource(trx, 'sec-securities', written.securities, started, notes, removed);
  await recordDemoSource(trx, 'sec-registrants', registrants.length, started, notes, removed);
}
