/**
 * Fast bulk inserts for the demo builder and ingestion, where Kysely's per-query compilation would
 * dominate. The caller owns the transaction:
 * - SQLite: rows go through a cached better-sqlite3 prepared statement on the handle's one
 *   connection, so they join whatever transaction is open there (a Kysely transaction included).
 *   Call it inside a transaction: outside one, every row commits on its own.
 * - PostgreSQL: COPY … FROM STDIN on `executor`'s connection — pass the Kysely transaction so the
 *   rows land in it (defaults to a pooled connection, autocommit). Falls back to batched multi-row
 *   INSERTs when that connection cannot be identified (see copy.ts).
 *
 * Columns are taken from the first row; every row must have the same keys. `undefined` is stored
 * as NULL. Values must be numbers, strings, bigints, byte arrays (Buffer, Uint8Array) or null; on
 * SQLite an array or a plain object is refused with its table and column named.
 */
import type { Database as SqliteDatabase, Statement } from 'better-sqlite3';
import type { Compilable, Insertable, Kysely, Transaction } from 'kysely';
import type { DbHandle } from './connect.js';
import { clientOf, copyRows } from './copy.js';
import type { Database } from './tables.js';

type Executor = Kysely<Database> | Transaction<Database>;
type TableName = keyof Database & string;

/** PostgreSQL allows 65,535 bind parameters per statement. */
const POSTGRES_MAX_PARAMETERS = 60_000;

/** Inserts one row (its values bound as the statement's arguments, in column order). */
type RowInsert = (row: Record<string, unknown>) => void;

const statementCache = new WeakMap<SqliteDatabase, Map<string, RowInsert>>();

/**
 * Runs `load` with SQLite's page cache raised to 256 MiB and temporary b-trees (GROUP BY, ORDER BY
 * sorters) kept in memory, then restores both. A large load then stops spilling dirty pages and
 * sorts to disk mid-transaction (measured: ~7 % less CPU on the demo's financials). No-op on PostgreSQL.
 */
export async function withBulkLoadPragmas<T>(handle: DbHandle, load: () => Promise<T>): Promise<T> {
  const sqlite = handle.sqlite;
  if (!sqlite) return load();
  const cache = Number(sqlite.pragma('cache_size', { simple: true }));
  const temp = Number(sqlite.pragma('temp_store', { simple: true }));
  sqlite.pragma('cache_size = -262144');
  sqlite.pragma('temp_store = MEMORY');
  try {
    return await load();
  } finally {
    sqlite.pragma(`cache_size = ${cache}`);
    sqlite.pragma(`temp_store = ${temp}`);
  }
}

/**
 * Runs `build` with SQLite's rollback journal instead of the WAL when no other connection has the
 * file open, for writes into a database nothing was loaded into yet (the demo on first start, a
 * first ingest: ingest/core/run.ts). The WAL writes every page twice, into the log and then into
 * the file at the checkpoint; a rollback journal keeps only the pages that existed before the
 * transaction, next to nothing in an empty database, so each page is written once (measured: the
 * full-scale demo 183 → 153 s, the small one 21–22 → 19 s; a first 13F load ~20 % shorter). A
 * process that opens the file meanwhile waits on such a writer and, after busy_timeout, fails
 * ("database is locked") instead of reading a snapshot (docs/deploy.md), hence empty databases
 * only, where there is nothing to serve yet, and only when the switch finds no other connection
 * (SQLite refuses it then; the build keeps the WAL). WAL is restored afterwards; should a connection
 * opened meanwhile prevent that, the file stays in rollback mode with `synchronous = FULL` until the
 * next writable open (openDatabase sets WAL on each).
 */
export async function withRollbackJournalWhenAlone<T>(handle: DbHandle, build: () => Promise<T>): Promise<T> {
  const sqlite = handle.sqlite;
  if (!sqlite || sqlite.memory) return build();
  const timeout = Number(sqlite.pragma('busy_timeout', { simple: true }));
  sqlite.pragma('busy_timeout = 0');
  let switched = false;
  try {
    switched = setJournalMode(sqlite, 'delete');
  } finally {
    sqlite.pragma(`busy_timeout = ${timeout}`);
  }
  if (!switched) return build();
  // NORMAL syncs a rollback journal less than its commit needs to survive a power cut (SQLite's
  // documentation); the journal of a file that had nothing in it is a few pages, so FULL costs little.
  const synchronous = Number(sqlite.pragma('synchronous', { simple: true }));
  sqlite.pragma('synchronous = FULL');
  const restore = () => {
    if (setJournalMode(sqlite, 'wal')) sqlite.pragma(`synchronous = ${synchronous}`);
  };
  let result: T;
  try {
    result = await build();
  } catch (error) {
    try {
      restore();
    } catch {
      // The build's own error says more.
    }
    throw error;
  }
  restore();
  return result;
}

/** Sets the journal mode; false when another connection prevents it (SQLITE_BUSY). */
function setJournalMode(sqlite: SqliteDatabase, mode: 'delete' | 'wal'): boolean {
  try {
    return sqlite.pragma(`journal_mode = ${mode}`, { simple: true }) === mode;
  } catch (error) {
    if ((error as { code?: string }).code === 'SQLITE_BUSY') return false;
    throw error;
  }
}

/** Inserts `rows` into `table`; returns the number of rows inserted. */
export async function insertRows<T extends TableName>(
  handle: DbHandle,
  table: T,
  rows: readonly Insertable<Database[T]>[],
  executor: Executor = handle.db,
): Promise<number> {
  if (rows.length === 0) return 0;
  const columns = Object.keys(rows[0] as object);
  if (handle.sqlite) {
    insertSqlite(handle.sqlite, table, columns, rows as readonly Record<string, unknown>[]);
  } else if (
    !(await copyPostgres(handle, executor, table, columns, rows as readonly Record<string, unknown>[]))
  ) {
    await insertPostgres(executor, table, columns, rows as readonly Record<string, unknown>[]);
  }
  return rows.length;
}

function rowsPerStatement(columnCount: number, maxVariables: number, maxRows: number): number {
  return Math.max(1, Math.min(maxRows, Math.floor(maxVariables / Math.max(1, columnCount))));
}

function quoteIdentifier(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/**
 * A column value as bound: undefined is NULL. An array or a plain object is refused, as
 * better-sqlite3 refuses it inside an array of values; passed as an argument (sqliteInsert) it
 * would spread into several parameters or be read as named ones, shifting values between columns.
 */
function bindable(value: unknown, table: string, column: string): unknown {
  if (value === undefined) return null;
  if (typeof value === 'object' && value !== null && !ArrayBuffer.isView(value))
    throw new TypeError(
      `${table}.${column}: ${Array.isArray(value) ? 'an array' : 'an object'} is not a column value`,
    );
  return value;
}

/**
 * One cached single-row INSERT per (table, columns), measured faster than multi-row statements, run
 * by a function generated for its columns: `statement.run(value(row["a"], "a"), …)`. Named
 * property reads instead of `row[columns[i]]`, and values passed as arguments rather than as an
 * array better-sqlite3 reads element by element: ~15 % less time on the 181 columns of the demo's
 * financial rows (docs/demo-build.md, "twentieth session").
 */
function sqliteInsert(sqlite: SqliteDatabase, table: string, columns: string[]): RowInsert {
  let cache = statementCache.get(sqlite);
  if (!cache) {
    cache = new Map();
    statementCache.set(sqlite, cache);
  }
  const key = `${table}\u0000${columns.join('\u0000')}`;
  let insert = cache.get(key);
  if (!insert) {
    const placeholders = columns.map(() => '?').join(',');
    const statement = sqlite.prepare(
      `insert into ${quoteIdentifier(table)} (${columns.map(quoteIdentifier).join(',')}) values (${placeholders})`,
    );
    const values = columns
      .map((column) => `value(row[${JSON.stringify(column)}], ${JSON.stringify(column)})`)
      .join(', ');
    const run = new Function('statement', 'row', 'value', `statement.run(${values});`) as (
      statement: Statement,
      row: Record<string, unknown>,
      value: (value: unknown, column: string) => unknown,
    ) => void;
    const value = (v: unknown, column: string) => bindable(v, table, column);
    insert = (row) => run(statement, row, value);
    cache.set(key, insert);
  }
  return insert;
}

function insertSqlite(
  sqlite: SqliteDatabase,
  table: string,
  columns: string[],
  rows: readonly Record<string, unknown>[],
): void {
  const insert = sqliteInsert(sqlite, table, columns);
  for (const row of rows) insert(row);
}

/**
 * COPY … FROM STDIN on the executor's own connection (the caller's transaction), or on a dedicated
 * pooled connection when the executor is the pool. Returns false when the connection behind a
 * transaction cannot be identified; the caller then falls back to multi-row INSERTs.
 */
async function copyPostgres(
  handle: DbHandle,
  executor: Executor,
  table: string,
  columns: string[],
  rows: readonly Record<string, unknown>[],
): Promise<boolean> {
  const pool = handle.pgPool;
  if (!pool) return false;
  if (!executor.isTransaction) {
    const client = await pool.connect();
    try {
      await copyRows(client, table, columns, rows);
    } finally {
      client.release();
    }
    return true;
  }
  const client = await clientOf(pool, executor);
  if (!client) return false;
  await copyRows(client, table, columns, rows);
  return true;
}

async function insertPostgres(
  executor: Executor,
  table: TableName,
  columns: string[],
  rows: readonly Record<string, unknown>[],
): Promise<void> {
  const batch = rowsPerStatement(columns.length, POSTGRES_MAX_PARAMETERS, Number.POSITIVE_INFINITY);
  for (let start = 0; start < rows.length; start += batch) {
    const chunk = rows.slice(start, start + batch).map((row) => {
      const clean: Record<string, unknown> = {};
      for (const column of columns) clean[column] = row[column] ?? null;
      return clean;
    });
    // The table is generic here; the caller's rows were typed against it.
    await executor
      .insertInto(table)
      .values(chunk as never)
      .execute();
  }
}

/**
 * The rows of `query` as arrays of values in select order, for derivations that read every column
 * of many rows: SQLite reads them raw on the handle's one connection (inside the caller's
 * transaction), skipping the per-row objects; PostgreSQL's rows are turned into arrays.
 */
export async function selectValueArrays(
  handle: DbHandle,
  executor: Executor,
  query: Compilable,
): Promise<unknown[][]> {
  const compiled = query.compile();
  if (handle.sqlite) {
    return handle.sqlite
      .prepare(compiled.sql)
      .raw(true)
      .all(...compiled.parameters) as unknown[][];
  }
  const { rows } = await executor.executeQuery(compiled);
  return rows.map((row) => Object.values(row as object));
}
