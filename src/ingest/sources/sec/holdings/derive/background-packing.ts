/**
 * Packing per security off the deriving thread. The derivation gathers a quarter's security
 * positions and holders as columns; packing them (a sort per security, one packed value each) is
 * pure work that needs no database, so it is handed to a worker thread (pack-worker.ts) and the
 * derivation goes on to its next step; the rows are inserted, in the derivation's transaction, when
 * the next job of the same kind is handed over or at the end. At most one job of each kind is
 * waiting, so at most a quarter's packed rows of each are held (~80–100 MB at full scale).
 * Where no compiled worker exists (sources run as TypeScript, as in-process tests do) the same
 * packers run in this thread when the rows are inserted. Either way the rows are the same.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { insertRows } from '../../../../../db/bulk.js';
import type { DbHandle } from '../../../../../db/connect.js';
import type { Executor } from './executor.js';
import type { PackedRows } from './packed-rows.js';
import {
  PACKERS,
  type PackColumns,
  type PackJob,
  type PackKind,
  type PackMessage,
  transferableBytes,
} from './packers.js';

const COMPILED_WORKER = new URL('./pack-worker.js', import.meta.url);
const compiledWorker = () => (existsSync(fileURLToPath(COMPILED_WORKER)) ? COMPILED_WORKER : null);

/** A handed-over job: inserts its rows once they are all packed. */
type Waiting = () => Promise<void>;

export class BackgroundPacking {
  private thread: Worker | null = null;
  private failure: Error | null = null;
  private nextId = 0;
  private readonly jobs = new Map<number, { batches: PackedRows[]; settle: (error?: Error) => void }>();
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
    this.waiting.set(kind, this.worker ? this.packInWorker(kind, columns) : this.packHere(kind, columns));
  }

  /** Inserts the rows of every job handed over. */
  async finish(): Promise<void> {
    for (const kind of [...this.waiting.keys()]) await this.insertWaiting(kind);
  }

  async close(): Promise<void> {
    await this.thread?.terminate();
    this.thread = null;
  }

  private async insertWaiting(kind: PackKind): Promise<void> {
    const waiting = this.waiting.get(kind);
    this.waiting.delete(kind);
    await waiting?.();
  }

  private packHere<K extends PackKind>(kind: K, columns: PackColumns<K>): Waiting {
    const packer = PACKERS[kind] as (columns: PackColumns<K>) => Generator<PackedRows>;
    return async () => {
      for (const batch of packer(columns)) await insertPackedBatch(this.handle, this.executor, batch);
    };
  }

  private packInWorker<K extends PackKind>(kind: K, columns: PackColumns<K>): Waiting {
    const id = this.nextId++;
    const batches: PackedRows[] = [];
    const packed = new Promise<void>((resolve, reject) => {
      this.jobs.set(id, { batches, settle: (error) => (error ? reject(error) : resolve()) });
    });
    packed.catch(() => {}); // awaited when its rows are inserted, unless the derivation fails first
    if (this.failure) this.settle(id, this.failure);
    else this.start().postMessage({ id, kind, columns } satisfies PackJob, transferableBytes(columns));
    return async () => {
      await packed;
      for (const batch of batches.splice(0)) await insertPackedBatch(this.handle, this.executor, batch);
    };
  }

  private start(): Worker {
    if (this.thread) return this.thread;
    // Packing allocates an order and a value per security: a 48 MB young generation (the default is
    // 16) halves its garbage collection (3.8 M positions: holders packed in 1.4 s instead of 2.0).
    const worker = new Worker(this.worker as URL, { resourceLimits: { maxYoungGenerationSizeMb: 48 } });
    worker.on('message', (message: PackMessage) => {
      if (message.type === 'batch') this.jobs.get(message.id)?.batches.push(message.batch);
      else this.settle(message.id, message.type === 'error' ? new Error(message.message) : undefined);
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
