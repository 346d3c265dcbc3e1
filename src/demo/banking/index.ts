import { insertRows, withBulkLoadPragmas } from '../../db/bulk.js';
import type { DbHandle } from '../../db/connect.js';
import { bumpDatasetVersion } from '../../db/dataset.js';
import { deriveFinancialAggregates } from '../../ingest/derived/financial-aggregates.js';
import { clearTables, recordDemoSource } from '../provenance.js';
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

/** The banking part with explicit institution counts (tests use small ones to stay fast). */
export async function buildBankingDemoWith(
  handle: DbHandle,
  options: DemoOptions,
  counts: InstitutionCounts,
) {
  const started = Date.now();
  const { root, certs, institutions } = demoInstitutions(options.seed, options.scale, counts);
  await yieldToEventLoop();
  const failures = generateFailures(root.fork('failures'), certs.slice(institutions.length));
  const macro = generateMacro(root.fork('macro'));
  await yieldToEventLoop();
  const notes = `seed ${options.seed}, scale ${options.scale}`;
  const generated = Date.now();

  await handle.db.transaction().execute(async (trx) => {
    const removed = await clearTables(trx, TABLES);
    await trx
      .deleteFrom('sources')
      .where('source', 'in', [...SOURCES])
      .execute();
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
    await bumpDatasetVersion(trx);
    await recordDemoSource(trx, 'fdic-institutions', institutions.length, started, notes, removed);
    await recordDemoSource(trx, 'fdic-financials', financialRows, started, notes, removed);
    await recordDemoSource(trx, 'fdic-failures', failures.length, started, notes, removed);
    await recordDemoSource(trx, 'fred', macro.observations.length, started, notes, removed);
    options.log?.(
      `demo banking: ${institutions.length} institutions, ${financialRows} financial rows, ${failures.length} failures, ${macro.observations.length} macro observations (generated in ${generated - started} ms, written in ${Date.now() - generated} ms)`,
    );
  });
}
