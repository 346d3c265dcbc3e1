/**
 * Rows collected and inserted a batch at a time, a batch closing once its packed values reach
 * `bytesPerWrite`: packed values (a manager's portfolio or changes, a security's holders) range from
 * a few bytes to ~0.6 MB, so a count of rows would bound neither the memory held nor a statement's
 * size. Inserted with insertRows, in the caller's transaction (`executor`).
 */
import type { Insertable, Kysely, Transaction } from 'kysely';
import { insertRows } from './bulk.js';
import type { DbHandle } from './connect.js';
import type { Database } from './tables.js';

type Executor = Kysely<Database> | Transaction<Database>;

export class BatchedInsert<T extends keyof Database & string> {
  private pending: Insertable<Database[T]>[] = [];
  private bytes = 0;

  constructor(
    private readonly handle: DbHandle,
    private readonly executor: Executor,
    private readonly table: T,
    private readonly bytesPerWrite: number,
  ) {}

  /** Adds a row whose packed values take `bytes`; inserts the batch once it is full. */
  async add(row: Insertable<Database[T]>, bytes: number): Promise<void> {
    this.pending.push(row);
    this.bytes += bytes;
    if (this.bytes >= this.bytesPerWrite) await this.flush();
  }

  /** Inserts the rows still held (call once the last row is added). */
  async flush(): Promise<void> {
    await insertRows(this.handle, this.table, this.pending, this.executor);
    this.pending = [];
    this.bytes = 0;
  }
}
