/**
 * Quarter-over-quarter changes stored packed (src/holdings/change-pack.ts): each manager quarter's
 * changes in one `changes_by_manager` row and each security quarter's holders in one
 * `holders_by_security` row, instead of a `position_changes` row per change with two indexes over it
 * (the holders one covering nearly every column: three copies of every change). A database loaded
 * before gets them from `regdata migrate` (backfilled from `positions` by the load's own code).
 */
import { type Kysely, sql } from 'kysely';
import { isPostgres } from '../dialect.js';

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
  await db.schema.dropTable('position_changes').execute();
  // The counts are rewritten with the packed changes by the backfill.
  await db.deleteFrom('manager_changes' as never).execute();
  await db.deleteFrom('security_changes' as never).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  // The changes come back with the next load (the derivation rewrites every quarter's).
  await db.schema
    .createTable('position_changes')
    .addColumn('quarter', 'text', (c) => c.notNull())
    .addColumn('cik', 'text', (c) => c.notNull())
    .addColumn('cusip', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('shares_before', 'double precision', (c) => c.notNull())
    .addColumn('shares_after', 'bigint', (c) => c.notNull())
    .addColumn('value_before', 'double precision', (c) => c.notNull())
    .addColumn('value_after', 'double precision', (c) => c.notNull())
    .addColumn('weight_before', 'double precision', (c) => c.notNull())
    .addColumn('weight_after', 'double precision', (c) => c.notNull())
    .addColumn('split_factor', 'double precision')
    .addColumn('ordinal', 'integer', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('position_changes_manager')
    .on('position_changes')
    .columns(['cik', 'quarter', 'ordinal'])
    .unique()
    .execute();
  await sql
    .raw(
      'create index position_changes_security on position_changes (quarter, cusip, value_after desc, cik, status, shares_after, shares_before, value_before, weight_after)',
    )
    .execute(db);
  await db.schema.dropTable('holders_by_security').execute();
  await db.schema.dropTable('changes_by_manager').execute();
}
