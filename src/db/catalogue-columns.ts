/**
 * The `financials` columns of the call-report catalogue: every catalogue field is a nullable double
 * column. migrateToLatest adds the columns a newer catalogue names, so adding a field needs no
 * hand-written migration. Columns of fields dropped from the catalogue stay (harmless, unread).
 */
import { sql } from 'kysely';
import { FIELD_NAMES } from '../banking/fields/catalogue.js';
import type { DbHandle } from './connect.js';

async function existingColumns(handle: DbHandle, table: string): Promise<Set<string>> {
  const query = handle.sqlite
    ? sql<{ name: string }>`select name from pragma_table_info(${table})`
    : sql<{ name: string }>`select column_name as name from information_schema.columns
        where table_schema = current_schema() and table_name = ${table}`;
  const { rows } = await query.execute(handle.db);
  return new Set(rows.map((row) => row.name));
}

/** Adds the catalogue columns `financials` lacks; returns their names. */
export async function addCatalogueColumns(handle: DbHandle): Promise<string[]> {
  const present = await existingColumns(handle, 'financials');
  const missing = FIELD_NAMES.filter((name) => !present.has(name));
  for (const name of missing) {
    await handle.db.schema.alterTable('financials').addColumn(name, 'double precision').execute();
  }
  return missing;
}
