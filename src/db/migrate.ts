import { Migrator } from 'kysely';
import type { DbHandle } from './connect.js';
import { migrationProvider } from './migrations/index.js';

/** Brings the schema up to date; throws with the failing migration's name. */
export async function migrateToLatest(handle: DbHandle): Promise<string[]> {
  const migrator = new Migrator({ db: handle.db, provider: migrationProvider });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error) {
    const name = failed ? ` (${failed.migrationName})` : '';
    throw new Error(`Migration failed${name}: ${error instanceof Error ? error.message : String(error)}`);
  }
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
