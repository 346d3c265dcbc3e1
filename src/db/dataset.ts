/**
 * The dataset version (bumped by every successful load, so ETags change) and per-source provenance.
 */
import { type Kysely, sql, type Transaction } from 'kysely';
import { isPostgres } from './dialect.js';
import type { Database, LoadsTable, SourcesTable } from './tables.js';

/** PostgreSQL channel on which a committed load announces its new dataset version. */
export const DATASET_CHANNEL = 'regdata_dataset_version';

type Executor = Kysely<Database> | Transaction<Database>;

export async function datasetVersion(db: Executor): Promise<number> {
  const row = await db.selectFrom('dataset').select('version').where('id', '=', 1).executeTakeFirst();
  return Number(row?.version ?? 0);
}

/**
 * Call inside the load's transaction so the new version and the new rows appear together. On
 * PostgreSQL it also queues a NOTIFY, which the server delivers to listening API processes only
 * when (and if) the transaction commits.
 */
export async function bumpDatasetVersion(db: Executor): Promise<number> {
  const version = (await datasetVersion(db)) + 1;
  await db
    .updateTable('dataset')
    .set({ version, updated_at: new Date().toISOString() })
    .where('id', '=', 1)
    .execute();
  if (isPostgres(db)) await sql`select pg_notify(${DATASET_CHANNEL}, ${String(version)})`.execute(db);
  return version;
}

export async function recordSource(db: Executor, source: SourcesTable): Promise<void> {
  await db
    .insertInto('sources')
    .values(source)
    .onConflict((oc) => oc.column('source').doUpdateSet(source))
    .execute();
}

export async function listSources(db: Executor): Promise<SourcesTable[]> {
  return db.selectFrom('sources').selectAll().orderBy('source').execute();
}

/**
 * What one load replaced in one table: `all` its rows, or those whose `replaces` column holds one of
 * `values` (the first 20 distinct staged values, ascending; `more` counts the rest).
 */
export interface LoadScope {
  readonly table: string;
  readonly replaces: string;
  readonly values: readonly string[] | null;
  readonly more: number;
}

export type LoadEntry = Omit<LoadsTable, 'scope' | 'loaded_at'> & { readonly scope: readonly LoadScope[] };

/** Records a committed load for the changes feed; call in the load's transaction. */
export async function recordLoad(db: Executor, entry: LoadEntry): Promise<void> {
  await db
    .insertInto('loads')
    .values({ ...entry, loaded_at: new Date().toISOString(), scope: JSON.stringify(entry.scope) })
    .execute();
}
