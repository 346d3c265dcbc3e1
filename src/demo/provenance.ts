/** How a demo part records itself in the provenance table: synthetic, and labelled as such. */
import type { Transaction } from 'kysely';
import { datasetVersion, recordLoad, recordSource } from '../db/dataset.js';
import { DEMO_SOURCE_TABLES, type DemoSource } from '../db/demo-sources.js';
import type { Database, TableName } from '../db/tables.js';

export const DEMO_UPSTREAM = 'built-in demo dataset (synthetic)';

/** Empties the tables (children first); returns the rows each held, for the changes feed. */
export async function clearTables(trx: Transaction<Database>, tables: readonly TableName[]) {
  const removed = new Map<string, number>();
  for (const table of tables) {
    const result = await trx.deleteFrom(table).executeTakeFirst();
    removed.set(table, Number(result.numDeletedRows));
  }
  return removed;
}

/** Empties a part's tables and forgets its sources; returns the rows each table held. */
export async function clearPart(
  trx: Transaction<Database>,
  tables: readonly TableName[],
  sources: readonly string[],
): Promise<Map<string, number>> {
  const removed = await clearTables(trx, tables);
  await trx
    .deleteFrom('sources')
    .where('source', 'in', [...sources])
    .execute();
  return removed;
}

/**
 * Records the demo source: provenance (`rows` as the demo counts them) and the changes feed (rows of
 * its tables, inserted and removed). Call after the version is bumped.
 */
export async function recordDemoSource(
  trx: Transaction<Database>,
  source: DemoSource,
  rows: number,
  started: number,
  notes: string,
  removed: ReadonlyMap<string, number> = new Map(),
): Promise<void> {
  await recordSource(trx, {
    source,
    upstream: DEMO_UPSTREAM,
    loaded_at: new Date().toISOString(),
    rows,
    duration_ms: Date.now() - started,
    checksum: null,
    is_demo: 1,
    notes,
  });
  const tables: readonly TableName[] = DEMO_SOURCE_TABLES[source];
  let inserted = 0;
  for (const table of tables) {
    const row = await trx
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    inserted += Number(row.n);
  }
  await recordLoad(trx, {
    version: await datasetVersion(trx),
    source,
    upstream: DEMO_UPSTREAM,
    is_demo: 1,
    scope: tables.map((table) => ({ table, replaces: 'all', values: null, more: 0 })),
    inserted,
    updated: 0,
    removed: tables.reduce((n, table) => n + (removed.get(table) ?? 0), 0),
  });
}
