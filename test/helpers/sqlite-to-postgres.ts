/**
 * Copies every regdata table of a SQLite database (e.g. the cached demo copy) into a migrated
 * PostgreSQL test database through insertRows (COPY), in one transaction, so suites that need a
 * realistic dataset run on both backends with the same data.
 */
import SqliteDatabase from 'better-sqlite3';
import { sql } from 'kysely';
import { insertRows } from '../../src/db/bulk.js';
import type { DbHandle } from '../../src/db/connect.js';
import type { Database } from '../../src/db/tables.js';

const CHUNK = 5000;

export async function copySqliteIntoPostgres(sqlitePath: string, writer: DbHandle): Promise<number> {
  if (writer.dialect !== 'postgres') throw new Error('copySqliteIntoPostgres needs a PostgreSQL writer');
  const source = new SqliteDatabase(sqlitePath, { readonly: true, fileMustExist: true });
  let copied = 0;
  try {
    const tables = source
      .prepare(
        "select name from sqlite_master where type = 'table' and name not like 'sqlite_%' and name not like 'kysely_%' and name not like 'staging_%'",
      )
      .pluck()
      .all() as string[];
    await writer.db.transaction().execute(async (trx) => {
      for (const table of tables) {
        await sql`delete from ${sql.table(table)}`.execute(trx);
        let chunk: Record<string, unknown>[] = [];
        for (const row of source.prepare(`select * from "${table}"`).iterate() as Iterable<
          Record<string, unknown>
        >) {
          chunk.push(row);
          if (chunk.length === CHUNK) {
            copied += await insertRows(writer, table as keyof Database, chunk as never, trx);
            chunk = [];
          }
        }
        copied += await insertRows(writer, table as keyof Database, chunk as never, trx);
      }
      // Identity columns continue after the copied ids, so later inserts without an id do not collide.
      const identities = await sql<{ table_name: string; column_name: string }>`
        select table_name, column_name from information_schema.columns
        where table_schema = current_schema() and is_identity = 'YES'`.execute(trx);
      for (const { table_name: table, column_name: column } of identities.rows) {
        await sql`select setval(pg_get_serial_sequence(${table}, ${column}), coalesce(max(${sql.ref(column)}), 0) + 1, false) from ${sql.table(table)}`.execute(
          trx,
        );
      }
    });
  } finally {
    source.close();
  }
  return copied;
}
