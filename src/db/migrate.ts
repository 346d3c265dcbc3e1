import { Migrator } from 'kysely';
import { backfillFinancialAggregates } from '../ingest/derived/financial-aggregates.js';
import { addCatalogueColumns } from './catalogue-columns.js';
import type { DbHandle } from './connect.js';
import { migrationProvider } from './migrations/index.js';

/**
 * Brings the schema up to date (the migrations, then the call-report catalogue's columns); throws
 * with the failing migration's name.
 */
export async function migrateToLatest(handle: DbHandle): Promise<string[]> {
  const migrator = new Migrator({ db: handle.db, provider: migrationProvider });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error) {
    const name = failed ? ` (${failed.migrationName})` : '';
    throw new Error(`Migration failed${name}: ${error instanceof Error ? error.message : String(error)}`);
  }
  const applied = (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
  const added = await addCatalogueColumns(handle);
  await backfillFinancialAggregates(handle);
  return added.length > 0 ? [...applied, `catalogue columns: ${added.join(', ')}`] : applied;
}
