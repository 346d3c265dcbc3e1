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
import { type Kysely, sql } from 'kysely';
import { MANAGER_CHANGES, managerChangeAt, unpackChanges } from '../../holdings/change-pack.js';
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
}

/** Rows per INSERT when refilling position_changes (12 columns: within both backends' limits). */
const ROWS_PER_INSERT = 500;

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.deleteFrom('position_changes' as never).execute();
  const managers = await sql<{ cik: string; quarter: string }>`
    select cik, quarter from changes_by_manager order by cik, quarter`.execute(db);
  for (const { cik, quarter } of managers.rows) {
    const { rows } = await sql<{ changes: Uint8Array }>`
      select changes from changes_by_manager where cik = ${cik} and quarter = ${quarter}`.execute(db);
    const packed = unpackChanges(MANAGER_CHANGES, (rows[0] as { changes: Uint8Array }).changes);
    const changes = Array.from({ length: packed.count }, (_, i) => ({
      quarter,
      cik,
      ...managerChangeAt(packed, i),
      ordinal: i + 1,
    }));
    for (let i = 0; i < changes.length; i += ROWS_PER_INSERT)
      await db
        .insertInto('position_changes' as never)
        .values(changes.slice(i, i + ROWS_PER_INSERT) as never)
        .execute();
  }
  await db.schema.dropTable('holders_by_security').execute();
  await db.schema.dropTable('changes_by_manager').execute();
}
