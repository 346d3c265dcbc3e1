/**
 * Quarter-over-quarter changes stored packed (src/holdings/change-pack.ts): each manager quarter's
 * changes in one `changes_by_manager` row and each security quarter's holders in one
 * `holders_by_security` row, instead of a `position_changes` row per change with two indexes over it
 * (the holders one covering nearly every column: three copies of every change). A database loaded
 * before gets them from `regdata migrate` (backfilled from the packed portfolios by the load's own
 * code).
 *
 * Additive (docs/deploy.md): `position_changes` stays, no longer written, so that API processes of
 * the previous release keep answering while the new ones roll out; a later release drops it. Down
 * refills it from the packed rows, so the previous release serves every quarter loaded since.
 */
import type { Kysely } from 'kysely';
import { MANAGER_CHANGES, managerChangeAt, unpackChanges } from '../../holdings/change-pack.js';
import { isPostgres } from '../dialect.js';
import { refillFromPacks } from '../refill-from-packs.js';

export async function up(db: Kysely<unknown>): Promise<void> {
  const bytes = isPostgres(db) ? 'bytea' : 'blob';
  await db.schema
    .createTable('changes_by_manager')
    .addColumn('cik', 'text', (c) => c.notNull())
    .addColumn('quarter', 'text', (c) => c.notNull())
    .addColumn('changes', bytes, (c) => c.notNull())
    .addPrimaryKeyConstraint('changes_by_manager_pk', ['cik', 'quarter'])
    .execute();
  await db.schema
    .createTable('holders_by_security')
    .addColumn('quarter', 'text', (c) => c.notNull())
    .addColumn('cusip', 'text', (c) => c.notNull())
    .addColumn('holders', bytes, (c) => c.notNull())
    .addPrimaryKeyConstraint('holders_by_security_pk', ['quarter', 'cusip'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  // One transaction on SQLite too (its migrations run outside one): never a half-refilled table.
  if (db.isTransaction) return refillPositionChanges(db);
  await db.transaction().execute(refillPositionChanges);
}

async function refillPositionChanges(db: Kysely<unknown>): Promise<void> {
  await db.deleteFrom('position_changes' as never).execute();
  await refillFromPacks(db, 'position_changes', {
    table: 'changes_by_manager',
    keys: ['cik', 'quarter'],
    column: 'changes',
    rowsOf: ({ cik, quarter }, pack) => {
      const packed = unpackChanges(MANAGER_CHANGES, pack);
      return Array.from({ length: packed.count }, (_, i) => ({
        quarter,
        cik,
        ...managerChangeAt(packed, i),
        ordinal: i + 1,
      }));
    },
  });
  await db.schema.dropTable('holders_by_security').execute();
  await db.schema.dropTable('changes_by_manager').execute();
}
