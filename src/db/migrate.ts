import { Migrator } from 'kysely';
import { backfillFinancialAggregates } from '../ingest/derived/financial-aggregates.js';
import { rebuildEntityLinks } from '../ingest/derived/identity/entity-links.js';
import { backfillChanges } from '../ingest/sources/sec/holdings/derive/changes.js';
import { backfillCrowdedDays } from '../ingest/sources/sec/holdings/derive/crowding.js';
import { backfillManagerPortfolios } from '../ingest/sources/sec/holdings/derive/portfolios.js';
import { backfillSecurityPositions } from '../ingest/sources/sec/holdings/derive/security-positions-backfill.js';
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
  await backfillDerived(handle);
  return added.length > 0 ? [...applied, `catalogue columns: ${added.join(', ')}`] : applied;
}

/**
 * Tables derived at load time that a database loaded before they existed lacks: the identity graph,
 * crowded-as-of-day rows, packed portfolios, packed security positions and packed changes, built
 * once here (later loads keep them current). The portfolios come first, from `positions` (which a
 * database derived before them has filled); the others are built from the portfolios.
 */
async function backfillDerived(handle: DbHandle): Promise<void> {
  const links = await handle.db.selectFrom('entity_links').select('from_id').limit(1).execute();
  const banks = await handle.db.selectFrom('institutions').select('cert').limit(1).execute();
  const advisers = await handle.db.selectFrom('advisers').select('crd').limit(1).execute();
  if (links.length === 0 && (banks.length > 0 || advisers.length > 0))
    await handle.db.transaction().execute((trx) => rebuildEntityLinks(handle, trx));
  await handle.db.transaction().execute((trx) => backfillManagerPortfolios(handle, trx));
  await handle.db.transaction().execute((trx) => backfillCrowdedDays(handle, trx));
  await handle.db.transaction().execute((trx) => backfillSecurityPositions(handle, trx));
  await handle.db.transaction().execute((trx) => backfillChanges(handle, trx));
}
