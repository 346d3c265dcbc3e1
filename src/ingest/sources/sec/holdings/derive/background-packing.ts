/**
 * Packing per security off the deriving thread. The derivation gathers a quarter's security
 * positions and holders as columns; packing them (a sort per security, one packed value each) is
 * pure work that needs no database, so it is handed to a worker thread (pack-worker.ts) and the
 * derivation goes on to its next step; the rows are inserted, in the derivation's transaction, when
 * the next job is handed over (the same kind's always, another kind's once it is packed) or at the
 * end, each batch as it comes back while the worker packs the next. At most one job of each kind
 * waits: a quarter's packed rows of each kind are held at most (~100 MB for both at full scale). While the deriving thread waits for a job, a PostgreSQL
 * transaction sits idle for a second or two. Where no compiled worker exists (sources run as
 * TypeScript, as in-process tests do) the same packers run in this thread at hand-over. Either way
 * the rows are the same.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { insertRows } from '../../../../../db/bulk.js';
import type { DbHandle } from '../../../../../db/connect.js';
import type { Executor } from './executor.js';
import type { PackedRows } from './packed-rows.js';
import { PACKERS, type PackColumns, type PackJob, type PackKind, type PackMessage } from './packers.js';
import { columnViews, ownedBuffers } from './transfer.js';

const COMPILED_WORKER = new URL('./pack-worker.js', import.meta.url);
const compiledWorker = () => (existsSync(fileURLToPath(COMPILED_WORKER)) ? COMPILED_WORKER : null);

/** A handed-over job: whether its rows are all packed, and the insert of them (awaiting them first). */
interface Waiting {
  readonly packed: () => boolean;
  readonly insert: () => Promise<void>;
}

export class BackgroundPacking {
  private thread: Worker | null = null;
  private failure: Error | null = null;
  private nextId = 0;
  private readonly jobs = new Map<
    number,
    { batches: PackedRows[]; arrived: () => void; settle: (error?: Error) => void }
  >();
  private readonly waiting = new Map<PackKind, Waiting>();

  constructor(
    private readonly handle: DbHandle,
    private readonly executor: Executor,
    /** The packing worker's module; null packs in this thread. */
    private readonly worker: URL | null = compiledWorker(),
  ) {}

  /** Hands a quarter's columns over for packing (they move to the worker: do not use them afterwards). */
  async pack<K extends PackKind>(kind: K, columns: PackColumns<K>): Promise<void> {
    await this.insertWaiting(kind);
    if (this.failure) throw this.failure;
    if (!this.worker) {
      const packer = PACKERS[kind] as (columns: PackColumns<K>) => Generator<PackedRows>;
      await insertPackedRows(this.handle, this.executor, packer(columns));
      return;
    }
    this.waiting.set(kind, this.packInWorker(kind, columns));
    // Rows already packed are inserted now rather than held through the next step.
    for (const [other, waiting] of this.waiting)
      if (other !== kind && waiting.packed()) await this.insertWaiting(other);
  }

  /** Inserts the rows of every job handed over. */
  async finish(): Promise<void> {
    for (const kind of [...this.waiting.keys()]) await this.insertWaiting(kind);
  }

  /** Whether a packing worker is running (until close). */
  get running(): boolean {
    return this.thread !== null;
  }

  async close(): Promise<void> {
    await this.thread?.terminate();
    this.thread = null;
  }

  private async insertWaiting(kind: PackKind): Promise<void> {
    const waiting = this.waiting.get(kind);
    this.waiting.delete(kind);
    await waiting?.insert();
  }

  private packInWorker<K extends PackKind>(kind: K, columns: PackColumns<K>): Waiting {
    const id = this.nextId++;
    const batches: PackedRows[] = [];
    let done = false;
    let wake: (() => void) | null = null;
    const arrived = () => {
      wake?.();
      wake = null;
    };
    const packed = new Promise<void>((resolve, reject) => {
      this.jobs.set(id, { batches, arrived, settle: (error) => (error ? reject(error) : resolve()) });
    });
    packed.then(() => (done = true)).catch(() => {}); // awaited by insert, unless the derivation fails first
    if (this.failure) this.settle(id, this.failure);
    else
      this.start().postMessage({ id, kind, columns } satisfies PackJob, ownedBuffers(columnViews(columns)));
    return {
      packed: () => done,
      // Each batch as it comes, while the worker packs the next: the wait for the last job of a
      // derivation was ~1 s with nothing else to do, the insert of its rows ~0.3 s after it. A job
      // that fails part-way has some rows inserted by then: the failure rejects here, and the
      // derivation's transaction, rolled back, takes them with it.
      insert: async () => {
        for (;;) {
          const batch = batches.shift();
          if (batch) await insertPackedBatch(this.handle, this.executor, batch);
          else if (done) return;
          else await Promise.race([packed, new Promise<void>((resolve) => (wake = resolve))]);
        }
      },
    };
  }

  private start(): Worker {
    if (this.thread) return this.thread;
    // A worker's young generation defaults to a share of the machine's memory (192 MB on 24 GiB);
    // 48 MB packs as fast (3.8 M positions: the same times, two runs each) with ~115 MB less peak RSS.
    const worker = new Worker(this.worker as URL, { resourceLimits: { maxYoungGenerationSizeMb: 48 } });
    worker.on('message', (message: PackMessage) => {
      const job = this.jobs.get(message.id);
      if (message.type === 'batch') {
        job?.batches.push(message.batch);
        job?.arrived();
      } else this.settle(message.id, message.type === 'error' ? new Error(message.message) : undefined);
    });
    const fail = (error: Error) => {
      this.failure ??= error;
      for (const id of [...this.jobs.keys()]) this.settle(id, this.failure);
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`the packing worker stopped (exit code ${code})`)));
    this.thread = worker;
    return worker;
  }

  private settle(id: number, error?: Error): void {
    this.jobs.get(id)?.settle(error);
    this.jobs.delete(id);
  }
}

/** Runs `derive` with a BackgroundPacking, whose rows are all inserted when it returns. */
export async function withPacking<T>(
  handle: DbHandle,
  executor: Executor,
  derive: (packing: BackgroundPacking) => Promise<T>,
): Promise<T> {
  const packing = new BackgroundPacking(handle, executor);
  try {
    const result = await derive(packing);
    await packing.finish();
    return result;
  } finally {
    await packing.close();
  }
}

/** Inserts one batch of packed rows; bytes that came from the worker arrive as plain Uint8Arrays. */
async function insertPackedBatch(handle: DbHandle, executor: Executor, batch: PackedRows): Promise<void> {
  const bytes = (view: Uint8Array) => Buffer.from(view.buffer, view.byteOffset, view.byteLength);
  if (batch.table === 'security_positions') {
    const rows = batch.rows.map((row) => ({ ...row, positions: bytes(row.positions) }));
    await insertRows(handle, 'security_positions', rows, executor);
  } else if (batch.table === 'holders_by_security') {
    const rows = batch.rows.map((row) => ({ ...row, holders: bytes(row.holders) }));
    await insertRows(handle, 'holders_by_security', rows, executor);
  } else await insertRows(handle, 'security_changes', batch.rows, executor);
}

/** Packs and inserts in this thread (for one-off callers: a backfill, tests). */
export async function insertPackedRows(handle: DbHandle, executor: Executor, batches: Iterable<PackedRows>) {
  for (const batch of batches) await insertPackedBatch(handle, executor, batch);
}
