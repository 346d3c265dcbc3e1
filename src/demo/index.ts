/**
 * `regdata demo`: the deterministic built-in demo dataset. Each part (banking, holdings) replaces its
 * own tables in one transaction and records itself as demo data in the provenance table.
 */
import { withRollbackJournalWhenAlone } from '../db/bulk.js';
import type { DbHandle } from '../db/connect.js';
import { listSources } from '../db/dataset.js';
import { migrateToLatest } from '../db/migrate.js';
import { removeAbandonedScratch } from './scratch.js';
import type { DemoOptions, DemoPart } from './types.js';

export type { DemoOptions, DemoPart, DemoScale } from './types.js';

export const DEFAULT_DEMO_SEED = 20260930;

/** The parts, in build order; each is a module under src/demo/. */
const parts: { name: string; build: () => Promise<DemoPart> }[] = [
  { name: 'banking', build: async () => (await import('./banking/index.js')).buildBankingDemo },
  { name: 'holdings', build: async () => (await import('./holdings/index.js')).buildHoldingsDemo },
];

export async function buildDemo(handle: DbHandle, options: DemoOptions): Promise<void> {
  await migrateToLatest(handle);
  if (handle.sqlite && !handle.sqlite.memory) removeAbandonedScratch(handle.sqlite.name);
  if ((await listSources(handle.db)).length > 0) return buildOneByOne(handle, options);
  // Nothing loaded yet (the first start): nothing to serve meanwhile, so write each page once and,
  // where it pays, build the two halves at the same time.
  const twoCores = options.sideBySide ?? options.scale === 'full';
  const sideBySide = twoCores ? await import('./side-by-side.js') : null;
  await withRollbackJournalWhenAlone(handle, () =>
    sideBySide?.canBuildSideBySide(handle)
      ? sideBySide.buildSideBySide(handle, options)
      : buildOneByOne(handle, options),
  );
}

async function buildOneByOne(handle: DbHandle, options: DemoOptions): Promise<void> {
  for (const part of parts) {
    const started = Date.now();
    await (await part.build())(handle, options);
    options.log?.(`demo ${part.name}: built in ${Date.now() - started} ms`);
  }
}
