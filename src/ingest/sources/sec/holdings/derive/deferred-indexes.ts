/**
 * SQLite: filling an EMPTY table with millions of rows is ~3× cheaper without its indexes, built
 * afterwards from the finished data (one sort each), than growing every index row by row (measured
 * on 1M positions: 3.3–5.1 s with the indexes, 1.1 s + 0.8 s to build them after). The indexes are
 * re-created from their own `CREATE INDEX` text in sqlite_master, so they come back exactly as the
 * migrations defined them, inside the caller's transaction (readers keep their snapshot). Used only
 * when the table is empty (a first load, a full re-derivation); PostgreSQL keeps its indexes, since
 * dropping one there would lock readers out until the load commits.
 */
import { sql } from 'kysely';
import type { DbHandle } from '../../../../../db/connect.js';
import type { Executor } from './executor.js';

export async function withIndexesDeferredIfEmpty<T>(
  handle: DbHandle,
  executor: Executor,
  table: 'positions',
  fill: () => Promise<T>,
): Promise<T> {
  if (!handle.sqlite) return fill();
  const someRow = await sql`select 1 as one from ${sql.table(table)} limit 1`.execute(executor);
  if (someRow.rows.length > 0) return fill();
  const { rows: indexes } = await sql<{ name: string; sql: string }>`
    select name, sql from sqlite_master where type = 'index' and tbl_name = ${table} and sql is not null
  `.execute(executor);
  for (const index of indexes) await sql`drop index ${sql.id(index.name)}`.execute(executor);
  const result = await fill();
  // The sorts behind CREATE INDEX may use a second core (SQLite's multi-threaded sorter).
  const threads = Number(handle.sqlite.pragma('threads', { simple: true }));
  handle.sqlite.pragma('threads = 2');
  try {
    for (const index of indexes) await sql.raw(index.sql).execute(executor);
  } finally {
    handle.sqlite.pragma(`threads = ${threads}`);
  }
  return result;
}
