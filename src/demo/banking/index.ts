import type { Transaction } from 'kysely';
import { insertRows, withBulkLoadPragmas } from '../../db/bulk.js';
import type { DbHandle } from '../../db/connect.js';
import { bumpDatasetVersion } from '../../db/dataset.js';
import type { Database } from '../../db/tables.js';
import { deriveFinancialAggregates } from '../../ingest/derived/financial-aggregates.js';
import { clearPart, recordDemoSource } from '../provenance.js';
import type { DemoOptions, DemoPart, DemoScale } from '../types.js';
import { generateFailures } from './failures.js';
import { financialBatches } from './financials.js';
import {
  certificatePool,
  generateInstitutions,
  INSTITUTION_COUNTS,
  type InstitutionCounts,
} from './institutions.js';
import { generateMacro } from './macro.js';
import { Random } from './random.js';

/** The banking tables, children first so deletes never trip a reference. */
const TABLES = ['financials', 'institutions', 'failures', 'macro_observations', 'macro_series'] as const;

/** Banking sources the demo replaces; a real load recorded for any of them no longer applies. */
const SOURCES = ['fdic-institutions', 'fdic-financials', 'ffiec-call', 'fdic-failures', 'fred'] as const;

/** SQLite writes are synchronous; let timers and I/O run between batches (progress, test workers). */
const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

export const buildBankingDemo: DemoPart = (handle: DbHandle, options: DemoOptions) =>
  withBulkLoadPragmas(handle, () => buildBankingDemoWith(handle, options, INSTITUTION_COUNTS[options.scale]));

/** The demo institutions of a seed and scale, in cert order (primary-key inserts then append). */
function demoInstitutions(seed: number, scale: DemoScale, counts = INSTITUTION_COUNTS[scale]) {
  const root = new Random(seed);
  const certs = certificatePool(root.fork('certs'), scale);
  const institutions = generateInstitutions(root.fork('institutions'), counts, certs).sort(
    (a, b) => a.cert - b.cert,
  );
  return { root, certs, institutions };
}

/** The demo's institutions of a seed and scale, as the banking part inserts them. */
export function demoInstitutionRows(seed: number, scale: DemoScale) {
  return demoInstitutions(seed, scale).institutions;
}

/** The banking part with explicit institution counts (tests use small ones to stay fast). */
export async function buildBankingDemoWith(
  handle: DbHandle,
  options: DemoOptions,
  counts: InstitutionCounts,
) {
  const generated = await generateBanking(options, counts);
  await handle.db.transaction().execute(async (trx) => {
    const removed = await clearBanking(trx);
    const written = await writeBanking(handle, trx, options, generated);
    await bumpDatasetVersion(trx);
    await recordBanking(trx, options, written, removed);
  });
}

type GeneratedBanking = Awaited<ReturnType<typeof generateBanking>>;

async function generateBanking(options: DemoOptions, counts: InstitutionCounts) {
  const started = Date.now();
  const { root, certs, institutions } = demoInstitutions(options.seed, options.scale, counts);
  await yieldToEventLoop();
  const failures = generateFailures(root.fork('failures'), certs.slice(institutions.length));
  const macro = generateMacro(root.fork('macro'));
  await yieldToEventLoop();
  return { started, generatedAt: Date.now(), root, institutions, failures, macro };
}

/** What writeBanking leaves for recordBanking: plain data, so it can come from a worker thread. */
export interface WrittenBanking {
  started: number;
  generatedAt: number;
  writtenAt: number;
  institutions: number;
  financials: number;
  failures: number;
  observations: number;
}

/** Empties the banking tables and forgets their sources; returns the rows each held. */
export const clearBanking = (trx: Transaction<Database>) => clearPart(trx, TABLES, SOURCES);

/**
 * The banking tables the demo copies whole when they are built beside it, parents first; not
 * `institutions`, which the main thread inserts itself (the holdings half reads them).
 */
export const COPIED_BANKING_TABLES = [
  'financials',
  'financial_aggregates',
  'failures',
  'macro_series',
  'macro_observations',
] as const;

async function writeBanking(
  handle: DbHandle,
  trx: Transaction<Database>,
  options: DemoOptions,
  { started, generatedAt, root, institutions, failures, macro }: GeneratedBanking,
): Promise<WrittenBanking> {
  await insertRows(handle, 'institutions', institutions, trx);
  let financialRows = 0;
  for (const batch of financialBatches(root.fork('financials'), institutions, options.scale)) {
    financialRows += await insertRows(handle, 'financials', batch, trx);
    await yieldToEventLoop();
  }
  await deriveFinancialAggregates(handle, trx);
  await insertRows(handle, 'failures', failures, trx);
  await insertRows(handle, 'macro_series', macro.series, trx);
  await insertRows(handle, 'macro_observations', macro.observations, trx);
  return {
    started,
    generatedAt,
    writtenAt: Date.now(),
    institutions: institutions.length,
    financials: financialRows,
    failures: failures.length,
    observations: macro.observations.length,
  };
}

/** Writes the banking tables of the scale's demo (no provenance: recordBanking does that). */
export async function writeBankingDemo(
  handle: DbHandle,
  trx: Transaction<Database>,
  options: DemoOptions,
): Promise<WrittenBanking> {
  return writeBanking(
    handle,
    trx,
    options,
    await generateBanking(options, INSTITUTION_COUNTS[options.scale]),
  );
}

/** The provenance of the banking part. Call after the version is bumped. */
export async function recordBanking(
  trx: Transaction<Database>,
  options: DemoOptions,
  written: WrittenBanking,
  removed: ReadonlyMap<string, number>,
): Promise<void> {
  const { started } = written;
  const notes = `seed ${options.seed}, scale ${options.scale}`;
  await recordDemoSource(trx, 'fdic-institutions', written.institutions, started, notes, removed);
  await recordDemoSource(trx, 'fdic-financials', written.financials, started, notes, removed);
  await recordDemoSource(trx, 'fdic-failures', written.failures, started, notes, removed);
  await recordDemoSource(trx, 'fred', written.observations, started, notes, removed);
  options.log?.(
    `demo banking: ${written.institutions} institutions, ${written.financials} financial rows, ${written.failures} failures, ${written.observations} macro observations (generated in ${written.generatedAt - started} ms, written in ${written.writtenAt - written.generatedAt} ms)`,
  );
}
