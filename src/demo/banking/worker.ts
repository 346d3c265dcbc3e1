/**
 * The banking half of a demo built side by side (../side-by-side.ts), in a worker thread: its
 * tables into a SQLite file of their own, for the main thread to copy in. Posts what recordBanking
 * needs. Written through the WAL, whose checkpoint is this thread's work: through a rollback
 * journal the full-scale build took 121–123 s instead of 115–117 in runs of the same hour (the main
 * thread’s half slowed).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { withBulkLoadPragmas } from '../../db/bulk.js';
import { openDatabase } from '../../db/connect.js';
import { migrateToLatest } from '../../db/migrate.js';
import type { DemoOptions } from '../types.js';
import { writeBankingDemo } from './index.js';

export interface BankingWorkerInput {
  readonly path: string;
  readonly options: Pick<DemoOptions, 'seed' | 'scale'>;
}

const { path, options } = workerData as BankingWorkerInput;
const handle = openDatabase(path);
// A scratch file, removed whether the build succeeds or fails, needs no fsync: its commit and
// checkpoint of ~1.4 GB at full scale took 5.2 s instead of 6.1–6.4 s without them (two runs each).
handle.sqlite?.pragma('synchronous = OFF');
try {
  await migrateToLatest(handle);
  const written = await withBulkLoadPragmas(handle, () =>
    handle.db.transaction().execute((trx) => writeBankingDemo(handle, trx, options)),
  );
  parentPort?.postMessage(written);
} finally {
  await handle.close();
}
