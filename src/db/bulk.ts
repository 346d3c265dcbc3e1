/**
 * Fast bulk inserts for the demo builder and ingestion, where Kysely's per-query compilation would
 * dominate. The caller owns the transaction:
 * - SQLite: rows go through cached better-sqlite3 prepared statements on the handle's one
 *   connection, so they join whatever transaction is open there (a Kysely transaction included).
 * - PostgreSQL: batched multi-row INSERTs through `executor` — pass the Kysely transaction so the
 *   rows land in it (defaults to the handle's pool, i.e. autocommit per batch).
 *
 * Columns are taken from the first row; every row must have the same keys. `undefined` is stored
 * as NULL. Values must be numbers, strings, bigints or null.
 */
import type { Database as SqliteDatabase, Statement } from 'better-sqlite3';
import type { Insertable, Kysely, Transaction } from 'kysely';
import type { DbHandle } from './connect.js';
import type { Database } from './tables.js';

type Executor = Kysely<Database> | Transaction<Database>;
type TableName = keyof Database & string;

/** SQLite allows 32,766 bound variables per statement; stay well below. */
const SQLITE_MAX_VARIABLES = 30_000;
const SQLITE_MAX_ROWS_PER_STATEMENT = 500;
/** PostgreSQL allows 65,535 bind parameters per statement. */
const POSTGRES_MAX_PARAMETERS = 60_000;

const statementCache = new WeakMap<SqliteDatabase, Map<string, Statement>>();

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
  } else {
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

function sqliteStatement(sqlite: SqliteDatabase, table: string, columns: string[], rowCount: number) {
  let cache = statementCache.get(sqlite);
  if (!cache) {
    cache = new Map();
    statementCache.set(sqlite, cache);
  }
  const key = `${table}\u0000${columns.join('\u0000')}\u0000${rowCount}`;
  let statement = cache.get(key);
  if (!statement) {
    const tuple = `(${columns.map(() => '?').join(',')})`;
    const sql = `insert into ${quoteIdentifier(table)} (${columns.map(quoteIdentifier).join(',')}) values ${Array(
      rowCount,
    )
      .fill(tuple)
      .join(',')}`;
    statement = sqlite.prepare(sql);
    cache.set(key, statement);
  }
  return statement;
}

function flatten(rows: readonly Record<string, unknown>[], columns: string[]): unknown[] {
  const values: unknown[] = new Array(rows.length * columns.length);
  let i = 0;
  for (const row of rows) {
    for (const column of columns) values[i++] = row[column] ?? null;
  }
  return values;
}

function insertSqlite(
  sqlite: SqliteDatabase,
  table: string,
  columns: string[],
  rows: readonly Record<string, unknown>[],
): void {
  const batch = rowsPerStatement(columns.length, SQLITE_MAX_VARIABLES, SQLITE_MAX_ROWS_PER_STATEMENT);
  for (let start = 0; start < rows.length; start += batch) {
    const chunk = rows.slice(start, start + batch);
    sqliteStatement(sqlite, table, columns, chunk.length).run(flatten(chunk, columns));
  }
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
