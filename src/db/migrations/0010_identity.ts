/**
 * The identity graph (SPEC §7): a bank's top holding company (FDIC `RSSDHCR`/`NAMEHCR`) on the
 * institution and per report date on its financials; SEC registrants (company_tickers_exchange.json,
 * one row per ticker); and the links between banks, holding companies, registrants, securities,
 * 13F filers and advisers, rebuilt by every load that can change them (src/ingest/derived/
 * entity-links.ts). Name matches below the linking threshold are kept apart as candidates.
 */
import type { Kysely } from 'kysely';

function linkColumns(db: Kysely<unknown>, table: string) {
  return db.schema
    .createTable(table)
    .addColumn('from_id', 'text', (c) => c.notNull())
    .addColumn('from_kind', 'text', (c) => c.notNull())
    .addColumn('from_name', 'text')
    .addColumn('relation', 'text', (c) => c.notNull())
    .addColumn('to_id', 'text', (c) => c.notNull())
    .addColumn('to_kind', 'text', (c) => c.notNull())
    .addColumn('to_name', 'text')
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('method', 'text', (c) => c.notNull())
    .addColumn('confidence', 'double precision', (c) => c.notNull())
    .addColumn('valid_from', 'text')
    .addColumn('valid_to', 'text');
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('institutions').addColumn('holding_company_rssd', 'bigint').execute();
  await db.schema.alterTable('financials').addColumn('holding_company', 'text').execute();
  await db.schema.alterTable('financials').addColumn('holding_company_rssd', 'bigint').execute();
  await db.schema
    .createTable('sec_registrants')
    .addColumn('cik', 'text', (c) => c.notNull())
    .addColumn('ticker', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('exchange', 'text')
    // The order SEC lists a company's tickers in (its primary listing first).
    .addColumn('ordinal', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('sec_registrants_pk', ['cik', 'ticker'])
    .execute();
  await db.schema.createIndex('sec_registrants_ticker').on('sec_registrants').column('ticker').execute();
  await linkColumns(db, 'entity_links').execute();
  await linkColumns(db, 'entity_link_candidates').execute();
  for (const table of ['entity_links', 'entity_link_candidates']) {
    await db.schema.createIndex(`${table}_from`).on(table).columns(['from_id', 'relation']).execute();
    await db.schema.createIndex(`${table}_to`).on(table).columns(['to_id', 'relation']).execute();
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('entity_link_candidates').execute();
  await db.schema.dropTable('entity_links').execute();
  await db.schema.dropTable('sec_registrants').execute();
  await db.schema.alterTable('financials').dropColumn('holding_company_rssd').execute();
  await db.schema.alterTable('financials').dropColumn('holding_company').execute();
  await db.schema.alterTable('institutions').dropColumn('holding_company_rssd').execute();
}
