/**
 * `manager_portfolios`: each manager quarter's positions packed in one binary value, in the
 * portfolio's order (src/holdings/portfolio-pack.ts), derived with the quarter's positions. The
 * portfolio, overlap and compare answers read one row per manager from it. A database loaded
 * before it existed gets it from `regdata migrate` (backfilled from `positions`).
 */
import type { Kysely } from 'kysely';
import { isPostgres } from '../dialect.js';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('manager_portfolios')
    .addColumn('cik', 'text', (c) => c.notNull())
    .addColumn('quarter', 'text', (c) => c.notNull())
    .addColumn('positions', isPostgres(db) ? 'bytea' : 'blob', (c) => c.notNull())
    .addPrimaryKeyConstraint('manager_portfolios_pk', ['cik', 'quarter'])
    .execute();
  // Deriving a quarter replaces its rows.
  await db.schema
    .createIndex('manager_portfolios_quarter')
    .on('manager_portfolios')
    .columns(['quarter', 'cik'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('manager_portfolios').execute();
}
