/**
 * `security_positions`: each security quarter's positions of every manager and every type packed in
 * one binary value (SECURITY_POSITIONS in src/holdings/portfolio-pack.ts), in the holders list's
 * order, instead of a `positions` row per position with two indexes over it: the table that made up
 * ~300 MB of a quarter's load, its index builds and its copy (docs/ingest-holdings.md). A manager's
 * side of the same positions is `manager_portfolios`. A database loaded before gets it from
 * `regdata migrate` (backfilled from the packed portfolios by the load's own code).
 *
 * Additive (docs/deploy.md): `positions` stays, no longer written, so that API processes of the
 * previous release keep answering while the new ones roll out; a later release drops it. Down
 * refills it from the packed portfolios, so the previous release serves every quarter loaded since.
 */
import type { Kysely } from 'kysely';
import { putCallOf, shareTypeOf, unpackPortfolio } from '../../holdings/portfolio-pack.js';
import { isPostgres } from '../dialect.js';
import { refillFromPacks } from '../refill-from-packs.js';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('security_positions')
    .addColumn('quarter', 'text', (c) => c.notNull())
    .addColumn('cusip', 'text', (c) => c.notNull())
    .addColumn('positions', isPostgres(db) ? 'bytea' : 'blob', (c) => c.notNull())
    .addPrimaryKeyConstraint('security_positions_pk', ['quarter', 'cusip'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  // One transaction on SQLite too (its migrations run outside one): never a half-refilled table.
  if (db.isTransaction) return refillPositions(db);
  await db.transaction().execute(refillPositions);
}

async function refillPositions(db: Kysely<unknown>): Promise<void> {
  await db.deleteFrom('positions' as never).execute();
  await refillFromPacks(db, 'positions', {
    table: 'manager_portfolios',
    keys: ['cik', 'quarter'],
    column: 'positions',
    rowsOf: ({ cik, quarter }, bytes) => {
      const pack = unpackPortfolio(bytes);
      return Array.from({ length: pack.count }, (_, i) => {
        const code = pack.codes[i] as number;
        // biome-ignore format: one position
        return { quarter, cik, cusip: pack.cusip(i), share_type: shareTypeOf(code), put_call: putCallOf(code),
          value: pack.values[i] as number, shares: pack.shares[i] as number, is_equity: code === 0 ? 1 : 0 };
      });
    },
  });
  await db.schema.dropTable('security_positions').execute();
}
