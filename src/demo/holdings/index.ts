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
import type { Insertable, Transaction } from 'kysely';
import { insertRows, withBulkLoadPragmas } from '../../db/bulk.js';
import type { DbHandle } from '../../db/connect.js';
import { bumpDatasetVersion } from '../../db/dataset.js';
import type { Database } from '../../db/tables.js';
import { nextQuarter, quarterEnd } from '../../holdings/identifiers.js';
import type { Filings13fTable, InfoRow13f, InfoTables13fTable } from '../../holdings/tables.js';
import { rebuildEntityLinks } from '../../ingest/derived/identity/entity-links.js';
import { readOverrides } from '../../ingest/derived/identity/overrides.js';
import { deriveHoldings } from '../../ingest/sources/sec/holdings/derive/index.js';
import {
  normalisedPutCall,
  normalisedShareType,
} from '../../ingest/sources/sec/holdings/derive/positions.js';
import { InfoTablePacker, packInfoRows } from '../../ingest/sources/sec/holdings/info-tables.js';
import { LoadSums } from '../../ingest/sources/sec/holdings/load-sums.js';
import { addDays } from '../../time/calendar.js';
import { clearTables, recordDemoSource } from '../provenance.js';
import type { DemoOptions, DemoPart, DemoScale } from '../types.js';
import { generateAdvisers } from './advisers.js';
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
const BATCH_ROWS = 20_000;

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

/**
 * Collects filings and streams info-table rows, packed per filing, to the database in batches; sums
 * each filing's positions as its rows go by, as the SEC load does, so the derivation need not read
 * the rows back (a filing's rows come in one call, right after the filing).
 */
function batchingSink(handle: DbHandle, trx: Transaction<Database>) {
  const filings: Insertable<Filings13fTable>[] = [];
  const packer = new InfoTablePacker();
  const sums = new LoadSums();
  let pending: InfoTables13fTable[] = [];
  let pendingRows = 0;
  let rowCount = 0;
  const flush = async () => {
    await insertRows(handle, 'info_tables_13f', pending, trx);
    pending = [];
    pendingRows = 0;
  };
  const sum = (filing: Insertable<Filings13fTable>, rows: readonly InfoRow13f[]) => {
    const run = sums.startFiling(filing.accession_number, filing.filing_date, filing.quarter);
    for (const row of rows) {
      // biome-ignore format: one row
      run.add(row.cusip.toUpperCase(), normalisedShareType(row.share_type), normalisedPutCall(row.put_call),
        row.value, row.shares, row.issuer, row.title_of_class);
    }
    sums.flushIfFull();
  };
  return {
    filing: (filing: Insertable<Filings13fTable>) => void filings.push(filing),
    rows: async (rows: InfoRow13f[]) => {
      const filing = filings.at(-1);
      if (filing && filing.accession_number === rows[0]?.accession_number) sum(filing, rows);
      for (const record of packInfoRows(rows, packer)) pending.push(record);
      rowCount += rows.length;
      pendingRows += rows.length;
      if (pendingRows >= BATCH_ROWS) await flush();
    },
    async finish() {
      const last = packer.close();
      if (last) pending.push(last);
      await flush();
      await insertRows(handle, 'filings_13f', filings, trx);
      sums.endOfRows();
      return { filings: filings.length, rows: rowCount, sums: sums.loaded };
    },
  };
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
  const listed = await listedHoldingCompanies(handle.db);
  const identity = applyDemoIdentity(listed, universe.securities, managers);
  nameMatchedAdvisers(advisers, managers, SHARED_CIK_ADVISERS);

  // Sorting for the derivation's GROUP BYs stays in memory instead of spilling to temp files.
  await withBulkLoadPragmas(handle, () =>
    fill(handle, options, { quarters, universe, managers, advisers, identity, started }),
  );
};

interface Generated {
  quarters: string[];
  universe: ReturnType<typeof generateUniverse>;
  managers: ReturnType<typeof generateManagers>;
  advisers: ReturnType<typeof generateAdvisers>;
  identity: DemoIdentity;
  started: number;
}

async function fill(
  handle: DbHandle,
  options: DemoOptions,
  { quarters, universe, managers, advisers, identity, started }: Generated,
) {
  const notes = `seed ${options.seed}, scale ${options.scale}`;
  resetAccessions();
  await handle.db.transaction().execute(async (trx) => {
    const removed = await clearTables(trx, TABLES);
    await trx
      .deleteFrom('sources')
      .where('source', 'in', [...SOURCES])
      .execute();
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
    await insertRows(handle, 'sec_registrants', identity.registrants, trx);
    const fileOverrides = readOverrides();
    const graph = await rebuildEntityLinks(handle, trx, {
      links: [...fileOverrides.links, ...identity.overrides.links],
      vetoes: fileOverrides.vetoes,
    });
    options.log?.(
      `demo holdings: ${managers.length} managers, ${loaded.filings} filings, ${loaded.rows} information-table rows (generated in ${generatedAt - started} ms, derived in ${Date.now() - generatedAt} ms, ${derived.summed} of ${derived.managerQuarters} manager quarters from the positions summed while generating), ${securities.length} securities, ${advisers.length} advisers, ${identity.registrants.length} registrants, ${graph.links} identity links`,
    );
    await bumpDatasetVersion(trx);
    await recordDemoSource(trx, 'sec-13f', loaded.rows, started, notes, removed);
    await recordDemoSource(trx, 'sec-advisers', advisers.length, started, notes, removed);
    await recordDemoSource(trx, 'sec-securities', securities.length, started, notes, removed);
    await recordDemoSource(trx, 'sec-registrants', identity.registrants.length, started, notes, removed);
  });
}
