/**
 * Staging. A load writes into `staging_<source>_<table>` (a table with the served table's columns,
 * recreated at the start of every run, so a killed run leaves only a stale staging table that the
 * next run drops); swap.ts then replaces the served rows of the load's scope in one transaction.
 * All SQL here is portable between SQLite and PostgreSQL; identifiers are ours, never user input.
 */
import { type Insertable, sql, type Transaction } from 'kysely';
import { insertRows } from '../../db/bulk.js';
import type { DbHandle } from '../../db/connect.js';
import type { Database, TableName } from '../../db/tables.js';
import type { Tally } from './summary.js';

/** Column values that pick served rows, e.g. `{ source: 'ffiec' }` (all must match). */
export type ColumnValues = Readonly<Record<string, string | number>>;

/**
 * The served rows a load replaces, as a value: `'all'` of them, or those whose `matching` column
 * value appears among the rows staged (in this table, or in the staging table of `stagedIn`),
 * narrowed by `where`. Served rows matching `keepUnlessRestaged` are replaced only by a staged row
 * with the same key. When the table holds the built-in demo dataset, the whole table is replaced
 * whatever the scope says (run.ts).
 */
export type Scope =
  | 'all'
  | {
      readonly matching: string;
      readonly stagedIn?: TableName;
      readonly where?: ColumnValues;
      readonly keepUnlessRestaged?: ColumnValues;
    };

export interface StagingSpec<T extends TableName> {
  readonly table: T;
  /** Columns this load fills, in the order rows are built. */
  readonly columns: readonly (keyof Insertable<Database[T]> & string)[];
  /** The natural key (duplicates within one load are rejected); [] when the table has none. */
  readonly key: readonly string[];
  readonly replace: Scope;
  /** The column counting the upstream rows one packed record holds (the guard weighs by it). */
  readonly rowsPerRecord?: string;
  /** Only staged rows whose key is not served (after the scoped delete) are swapped in. */
  readonly insertOnlyNew?: boolean;
  /** Rows buffered before a write (default 5,000); lower for large rows such as packed filings. */
  readonly flushEvery?: number;
  /** Runs on the staging table inside the swap transaction, before the swap (e.g. fills a column). */
  readonly prepare?: (trx: Transaction<Database>, staging: string) => Promise<void>;
}

const FLUSH_ROWS = 5000;

export class Stager<T extends TableName> {
  private buffer: Insertable<Database[T]>[] = [];
  private readonly seen = new Set<string>();
  staged = 0;

  constructor(
    private readonly handle: DbHandle,
    /** The source loading it (staging table names derive from it). */
    readonly source: string,
    readonly spec: StagingSpec<T>,
    readonly stagingTable: string,
    private readonly tally: Tally,
  ) {}

  /** Adds a row; a second row with the same key is rejected (the first one wins). */
  async add(row: Insertable<Database[T]>): Promise<boolean> {
    if (this.spec.key.length > 0) {
      const record = row as Record<string, unknown>;
      const key = this.spec.key.map((k) => String(record[k])).join('\u0000');
      if (this.seen.has(key)) {
        this.tally.reject(`duplicate ${this.spec.key.join(' + ')} in ${this.spec.table}`);
        return false;
      }
      this.seen.add(key);
    }
    this.buffer.push(row);
    if (this.buffer.length >= (this.spec.flushEvery ?? FLUSH_ROWS)) await this.flush();
    return true;
  }

  async flush(): Promise<void> {
    if (this.buffer.length === 0) return;
    const rows = this.buffer.map((row) => {
      const record = row as Record<string, unknown>;
      return Object.fromEntries(this.spec.columns.map((c) => [c, record[c] ?? null]));
    });
    this.buffer = [];
    const table = this.stagingTable as TableName;
    if (this.handle.sqlite) {
      const sqlite = this.handle.sqlite;
      sqlite.exec('begin');
      try {
        await insertRows(this.handle, table, rows as never);
        sqlite.exec('commit');
      } catch (error) {
        sqlite.exec('rollback');
        throw error;
      }
    } else {
      await this.handle.db.transaction().execute((trx) => insertRows(this.handle, table, rows as never, trx));
    }
    this.staged += rows.length;
  }
}

export function stagingTableName(source: string, table: string): string {
  return `staging_${source}_${table}`.replace(/[^A-Za-z0-9_]/g, '_').toLowerCase();
}

/** (Re)creates the empty staging table with the served table's columns and a key index. */
export async function createStaging<T extends TableName>(
  handle: DbHandle,
  source: string,
  spec: StagingSpec<T>,
  tally: Tally,
): Promise<Stager<T>> {
  const name = stagingTableName(source, spec.table);
  // SQLite: a TEMP table, private to the load's one connection and kept in a temporary file that
  // is never journaled to the WAL nor checkpointed into the database: staged rows are written once
  // instead of three times, and vanish with the process if it is killed. (Stale staging tables of
  // earlier versions, in the main schema, are dropped too.) PostgreSQL needs a plain table, since
  // the load's statements use several pooled connections.
  const temporary = handle.sqlite ? 'temp ' : '';
  if (handle.sqlite) await sql.raw(`drop table if exists temp.${name}`).execute(handle.db);
  await sql.raw(`drop table if exists ${handle.sqlite ? 'main.' : ''}${name}`).execute(handle.db);
  await sql
    .raw(
      `create ${temporary}table ${name} as select ${spec.columns.join(', ')} from ${spec.table} where 1 = 0`,
    )
    .execute(handle.db);
  if (spec.key.length > 0) {
    await sql.raw(`create unique index ${name}_key on ${name} (${spec.key.join(', ')})`).execute(handle.db);
  }
  return new Stager(handle, source, spec, name, tally);
}

export async function dropStaging(handle: DbHandle, stager: Stager<TableName>): Promise<void> {
  await sql.raw(`drop table if exists ${stager.stagingTable}`).execute(handle.db);
}
