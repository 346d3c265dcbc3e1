/**
 * The demo built into an empty SQLite file on two cores: a worker thread writes the banking half
 * into a file of its own (banking/worker.ts) while this thread builds the holdings half; then, in
 * the same transaction, the banking tables are copied in (for identical tables SQLite copies the
 * records without decoding them: ~1.9 GB at full scale in ~7–8 s) and the identity graph is built
 * over both halves. The tables end up as when the halves run one after the other, versions and
 * provenance included (test/unit/demo-side-by-side.test.ts). Full scale: 153 → 115–118 s
 * (docs/demo-build.md). Only where the compiled worker exists: sources run as TypeScript
 * (in-process tests) build one half after the other.
 */
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { threadId, Worker } from 'node:worker_threads';
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
import type { DemoOptions } from './types.js';

const WORKER = new URL('./banking/worker.js', import.meta.url);
const ATTACHED = 'demo_banking';

/** Where the banking half is written: beside the database (a temporary directory may be small). */
const scratchPrefix = (database: string) => `${database}.demo-banking-`;

export function canBuildSideBySide(handle: DbHandle): boolean {
  return handle.sqlite !== null && !handle.sqlite.memory && existsSync(fileURLToPath(WORKER));
}

export async function buildSideBySide(handle: DbHandle, options: DemoOptions): Promise<void> {
  const sqlite = handle.sqlite as NonNullable<DbHandle['sqlite']>;
  removeAbandonedScratch(sqlite.name);
  const path = `${scratchPrefix(sqlite.name)}${process.pid}-${threadId}`;
  const input: BankingWorkerInput = { path, options: { seed: options.seed, scale: options.scale } };
  const started = Date.now();
  // The file exists with its schema before it is attached, so this connection's view of it never
  // goes stale; ATTACH is refused inside a transaction, and the worker is done with it before a read.
  const file = openDatabase(path);
  await migrateToLatest(file);
  await file.close();
  sqlite.prepare(`attach database ? as ${ATTACHED}`).run(path);
  const worker = new Worker(WORKER, { workerData: input });
  const banking = new Promise<WrittenBanking>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`the banking demo worker stopped (exit code ${code})`)));
  });
  banking.catch(() => {}); // awaited below, unless the holdings half fails first
  try {
    await withBulkLoadPragmas(handle, () =>
      handle.db.transaction().execute(async (trx) => {
        const removed = new Map([...(await clearBanking(trx)), ...(await clearHoldings(trx))]);
        // The holdings half names its listed holding companies from the banks.
        await insertRows(handle, 'institutions', demoInstitutionRows(options.seed, options.scale), trx);
        const holdings = await writeHoldings(handle, trx, options, await generateHoldings(trx, options));
        const written = await banking;
        const copying = Date.now();
        for (const table of COPIED_BANKING_TABLES)
          sqlite.exec(`insert into main."${table}" select * from ${ATTACHED}."${table}"`);
        options.log?.(
          `demo: banking half copied in ${Date.now() - copying} ms, ${copying - started} ms after the start`,
        );
        await bumpDatasetVersion(trx);
        await recordBanking(trx, options, written, removed);
        await finishHoldings(handle, trx, options, holdings, removed);
      }),
    );
  } finally {
    sqlite.exec(`detach database ${ATTACHED}`);
    await worker.terminate();
    for (const suffix of ['', '-journal', '-wal', '-shm']) rmSync(`${path}${suffix}`, { force: true });
  }
  options.log?.(`demo: both halves built in ${Date.now() - started} ms`);
}

/** Removes the scratch files of builds whose process is gone (killed before their own cleanup). */
function removeAbandonedScratch(database: string): void {
  const prefix = basename(scratchPrefix(database));
  for (const name of readdirSync(dirname(database))) {
    if (!name.startsWith(prefix)) continue;
    const pid = Number.parseInt(name.slice(prefix.length), 10);
    if (!isRunning(pid)) rmSync(join(dirname(database), name), { force: true });
  }
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as { code?: string }).code === 'EPERM';
  }
}
