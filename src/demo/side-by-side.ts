/**
 * The demo built into an empty SQLite file on two cores: a worker thread writes the banking half
 * into a file of its own (banking/worker.ts) while this thread builds the holdings half; then, in
 * the same transaction, the banking tables are copied in (for identical tables SQLite copies the
 * records without decoding them: ~1.9 GB at full scale in ~7–8 s) and the identity graph is built
 * over both halves. The tables end up as when the halves run one after the other, versions and
 * provenance included (test/unit/demo-side-by-side.test.ts). Full scale: 153 → 112–122 s
 * (docs/demo-build.md). Only where the compiled worker exists: sources run as TypeScript
 * (in-process tests) build one half after the other.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { insertRows, withBulkLoadPragmas } from '../db/bulk.js';
import { type DbHandle, openDatabase } from '../db/connect.js';
import { bumpDatasetVersion } from '../db/dataset.js';
import { migrateToLatest } from '../db/migrate.js';
import {
  COPIED_BANKING_TABLES,
  clearBanking,
  demoInstitutionRows,
  recordBanking,
  type WrittenBanking,
} from './banking/index.js';
import type { BankingWorkerInput } from './banking/worker.js';
import { clearHoldings, finishHoldings, generateHoldings, writeHoldings } from './holdings/index.js';
import { removeScratch, scratchPath } from './scratch.js';
import type { DemoOptions } from './types.js';

const WORKER = new URL('./banking/worker.js', import.meta.url);
const ATTACHED = 'demo_banking';

export function canBuildSideBySide(handle: DbHandle): boolean {
  return handle.sqlite !== null && !handle.sqlite.memory && existsSync(fileURLToPath(WORKER));
}

export async function buildSideBySide(handle: DbHandle, options: DemoOptions): Promise<void> {
  const sqlite = handle.sqlite as NonNullable<DbHandle['sqlite']>;
  const path = scratchPath(sqlite.name);
  const input: BankingWorkerInput = { path, options: { seed: options.seed, scale: options.scale } };
  const started = Date.now();
  let worker: Worker | null = null;
  let attached = false;
  try {
    // The file exists with its schema before it is attached, so this connection's view of it never
    // goes stale; ATTACH is refused inside a transaction, and the worker is done with it before a read.
    const file = openDatabase(path);
    await migrateToLatest(file);
    await file.close();
    sqlite.prepare(`attach database ? as ${ATTACHED}`).run(path);
    attached = true;
    const running = new Worker(WORKER, { workerData: input });
    worker = running;
    const banking = new Promise<WrittenBanking>((resolve, reject) => {
      running.once('message', resolve);
      running.once('error', reject);
      running.once('exit', (code) =>
        reject(new Error(`the banking demo worker stopped (exit code ${code})`)),
      );
    });
    banking.catch(() => {}); // awaited below, unless the holdings half fails first
    await withBulkLoadPragmas(handle, () =>
      handle.db.transaction().execute(async (trx) => {
        const removed = new Map([...(await clearBanking(trx)), ...(await clearHoldings(trx))]);
        // The holdings half names its listed holding companies from the banks.
        await insertRows(handle, 'institutions', demoInstitutionRows(options.seed, options.scale), trx);
        const holdings = await writeHoldings(handle, trx, options, await generateHoldings(trx, options));
        const written = await banking;
        const copying = Date.now();
        for (const table of COPIED_BANKING_TABLES) {
          // Empty already unless something was left without a source; the copy needs them empty.
          sqlite.exec(`delete from main."${table}"`);
          sqlite.exec(`insert into main."${table}" select * from ${ATTACHED}."${table}"`);
        }
        options.log?.(
          `demo: banking half copied in ${Date.now() - copying} ms, ${copying - started} ms after the start`,
        );
        await bumpDatasetVersion(trx);
        await recordBanking(trx, options, written, removed);
        await finishHoldings(handle, trx, options, holdings, removed);
      }),
    );
  } finally {
    await worker?.terminate();
    if (attached) sqlite.exec(`detach database ${ATTACHED}`);
    removeScratch(path);
  }
  options.log?.(`demo: both halves built in ${Date.now() - started} ms`);
}
