/**
 * Opens the database named by a URL: a SQLite file (path or `file:` URL) or PostgreSQL
 * (`postgres://` / `postgresql://`). Query code only sees Kysely<Database>; the raw handles are
 * exposed for bulk loading, where the driver's own fast path matters.
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import { trackPoolClients } from './copy.js';
import { withFastRows } from './sqlite-rows.js';
import type { Database } from './tables.js';

export type Dialect = 'sqlite' | 'postgres';

export interface DbHandle {
  readonly db: Kysely<Database>;
  readonly dialect: Dialect;
  readonly sqlite: SqliteDatabase.Database | null;
  readonly pgPool: pg.Pool | null;
  close(): Promise<void>;
}

export interface OpenOptions {
  /** The API opens the database read-only; only ingestion and the demo builder write. */
  readonly readonly?: boolean;
  readonly poolSize?: number;
  readonly statementTimeoutMs?: number;
}

export function isPostgresUrl(url: string): boolean {
  return /^postgres(ql)?:\/\//i.test(url);
}

/** The URL without its password, for output and logs. */
export function redactUrl(url: string): string {
  if (!isPostgresUrl(url)) return url;
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return url.replace(/\/\/([^:/@]*):[^@]*@/, '//$1:***@');
  }
}

/** The page size of every SQLite database regdata creates. */
export const SQLITE_PAGE_SIZE = 16384;

export function sqlitePath(url: string): string {
  return url.startsWith('file:') ? fileURLToPath(new URL(url, `file://${process.cwd()}/`)) : url;
}

// PostgreSQL returns int8 and numeric as strings; every such column here fits a JS number.
pg.types.setTypeParser(20, (value) => Number(value));
pg.types.setTypeParser(1700, (value) => Number(value));

export function openDatabase(url: string, options: OpenOptions = {}): DbHandle {
  return isPostgresUrl(url) ? openPostgres(url, options) : openSqlite(sqlitePath(url), options);
}

function openSqlite(path: string, options: OpenOptions): DbHandle {
  if (!options.readonly && path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const sqlite = new SqliteDatabase(path, {
    readonly: options.readonly ?? false,
    fileMustExist: options.readonly ?? false,
  });
  if (!options.readonly) {
    try {
      // Takes effect only in a file that has no page yet (an existing database keeps its own):
      // most of the bytes written are packed values of kilobytes (raw 13F rows, portfolios,
      // positions, changes), which 16 KiB pages store in a quarter of the pages, writes and reads
      // of SQLite's 4 KiB default (docs/deploy.md, "SQLite page size").
      sqlite.pragma(`page_size = ${SQLITE_PAGE_SIZE}`);
      // WAL lets API processes keep reading the old snapshot while an ingest writes and swaps.
      sqlite.pragma('journal_mode = WAL');
      sqlite.pragma('synchronous = NORMAL');
    } catch (error) {
      sqlite.close();
      throw isBusy(error) ? lockedOutsideWal(path, error) : error;
    }
  }
  sqlite.pragma('busy_timeout = 5000');
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: withFastRows(sqlite) }) });
  return {
    db,
    dialect: 'sqlite',
    sqlite,
    pgPool: null,
    close: () => db.destroy(),
  };
}

function isBusy(error: unknown): boolean {
  return error instanceof SqliteDatabase.SqliteError && error.code.startsWith('SQLITE_BUSY');
}

/**
 * A writable open refused its locks (at once, or after better-sqlite3's 5 s busy timeout while the
 * other side commits): with every writer on the WAL an open is not refused, so another process is
 * writing the file outside the WAL (a first load into an empty file, or a page-size conversion's
 * VACUUM), and the bare "database is locked" gets that likely cause and what to do.
 */
function lockedOutsideWal(path: string, cause: unknown): Error {
  return new Error(
    `${path} is locked: another process is writing it outside the WAL, most likely a first load ` +
      'into this empty file (docs/deploy.md, "The first load into an empty SQLite file"); run ' +
      'this again once that load has finished',
    { cause },
  );
}

function openPostgres(url: string, options: OpenOptions): DbHandle {
  const pool = new pg.Pool({
    connectionString: url,
    max: options.poolSize ?? 10,
    ...(options.statementTimeoutMs ? { statement_timeout: options.statementTimeoutMs } : {}),
    // Read-only like the SQLite handle even when the URL's role could write (defence in depth;
    // the read-only role of `regdata db create-readonly-role` is the real barrier).
    ...(options.readonly ? { options: '-c default_transaction_read_only=on' } : {}),
  });
  // An idle client losing its server (restart, failover) must not crash the process.
  pool.on('error', () => {});
  // pg-pool listens for errors only on idle clients: a server restart that hits a checked-out
  // client between two queries would otherwise be an uncaught 'error' event and kill the process.
  // The client's next query then fails and is answered as a 503; the pool discards the client.
  pool.on('connect', (client) => client.on('error', () => {}));
  trackPoolClients(pool);
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  return {
    db,
    dialect: 'postgres',
    sqlite: null,
    pgPool: pool,
    close: () => db.destroy(),
  };
}
