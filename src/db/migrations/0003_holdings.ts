/**
 * Holdings service schema (SPEC §3). Raw tables hold 13F filings and information-table rows exactly
 * as filed (values in the filing's own unit); derived tables are recomputed by
 * `deriveHoldings()` (src/ingest/sources/sec/holdings/derive) and are all the API reads. Values and share counts are
 * bigint; derived values are thousands of USD as double precision (dollar filings keep their
 * decimals: 1,234,567 USD → 1234.567).
 */
import type { Kysely } from 'kysely';

type Db = Kysely<unknown>;

async function rawTables(db: Db): Promise<void> {
  await db.schema
    .createTable('filings_13f')
    .addColumn('accession_number', 'text', (c) => c.primaryKey())
    .addColumn('cik', 'text', (c) => c.notNull())
    .addColumn('period_of_report', 'text', (c) => c.notNull())
    .addColumn('quarter', 'text', (c) => c.notNull())
    .addColumn('filing_date', 'text', (c) => c.notNull())
    .addColumn('form_type', 'text', (c) => c.notNull())
    .addColumn('amendment_type', 'text')
    .addColumn('amendment_no', 'integer')
    .addColumn('manager_name', 'text', (c) => c.notNull())
    .addColumn('city', 'text')
    .addColumn('state', 'text')
    .addColumn('country', 'text')
    .addColumn('report_type', 'text')
    .addColumn('table_value_total', 'bigint')
    .addColumn('table_entry_total', 'bigint')
    .execute();
  await db.schema
    .createIndex('filings_13f_cik_quarter')
    .on('filings_13f')
    .columns(['cik', 'quarter'])
    .execute();
  await db.schema.createIndex('filings_13f_quarter').on('filings_13f').columns(['quarter', 'cik']).execute();

  await db.schema
    .createTable('info_rows_13f')
    .addColumn('accession_number', 'text', (c) => c.notNull())
    .addColumn('cusip', 'text', (c) => c.notNull())
    .addColumn('issuer', 'text', (c) => c.notNull())
    .addColumn('title_of_class', 'text')
    .addColumn('value', 'bigint', (c) => c.notNull())
    .addColumn('shares', 'bigint', (c) => c.notNull())
    .addColumn('share_type', 'text', (c) => c.notNull())
    .addColumn('put_call', 'text')
    .addColumn('investment_discretion', 'text')
    .addColumn('voting_sole', 'bigint')
    .addColumn('voting_shared', 'bigint')
    .addColumn('voting_none', 'bigint')
    .execute();
  await db.schema
    .createIndex('info_rows_13f_accession')
    .on('info_rows_13f')
    .column('accession_number')
    .execute();
}

async function referenceTables(db: Db): Promise<void> {
  await db.schema
    .createTable('managers')
    .addColumn('cik', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('search_name', 'text', (c) => c.notNull())
    .addColumn('city', 'text')
    .addColumn('state', 'text')
    .addColumn('country', 'text')
    .execute();
  await db.schema
    .createTable('securities')
    .addColumn('cusip', 'text', (c) => c.primaryKey())
    .addColumn('issuer', 'text', (c) => c.notNull())
    .addColumn('title_of_class', 'text')
    .addColumn('ticker', 'text')
    .execute();
  await db.schema
    .createTable('advisers')
    .addColumn('crd', 'bigint', (c) => c.primaryKey())
    .addColumn('sec_number', 'text')
    .addColumn('cik', 'text')
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('search_name', 'text', (c) => c.notNull())
    .addColumn('legal_name', 'text')
    .addColumn('search_legal_name', 'text')
    .addColumn('address', 'text')
    .addColumn('city', 'text')
    .addColumn('state', 'text')
    .addColumn('country', 'text')
    .addColumn('phone', 'text')
    .addColumn('website', 'text')
    .addColumn('aum', 'double precision')
    .addColumn('discretionary_aum', 'double precision')
    .addColumn('employees', 'bigint')
    .addColumn('clients', 'bigint')
    .addColumn('clients_individuals', 'bigint')
    .addColumn('clients_high_net_worth', 'bigint')
    .addColumn('clients_investment_companies', 'bigint')
    .addColumn('clients_pooled_vehicles', 'bigint')
    .addColumn('clients_pension_plans', 'bigint')
    .addColumn('clients_other', 'bigint')
    .addColumn('private_funds', 'bigint')
    .addColumn('hedge_funds', 'bigint')
    .addColumn('private_equity_funds', 'bigint')
    .addColumn('registration_status', 'text')
    .addColumn('latest_filing_date', 'text')
    .execute();
  // The list's default orders (nulls last, then crd) read these indexes instead of sorting.
  await db.schema.createIndex('advisers_aum').on('advisers').columns(['aum desc', 'crd']).execute();
  await db.schema
    .createIndex('advisers_employees')
    .on('advisers')
    .columns(['employees desc', 'crd'])
    .execute();
  await db.schema.createIndex('advisers_name').on('advisers').columns(['search_name', 'crd']).execute();
  await db.schema.createIndex('advisers_state_aum').on('advisers').columns(['state', 'aum']).execute();
  await db.schema.createIndex('advisers_cik').on('advisers').column('cik').execute();
}

async function derivedTables(db: Db): Promise<void> {
  await db.schema
    .createTable('applied_filings_13f')
    .addColumn('quarter', 'text', (c) => c.notNull())
    .addColumn('cik', 'text', (c) => c.notNull())
    .addColumn('accession_number', 'text', (c) => c.notNull())
    .addColumn('role', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('applied_filings_13f_pk', ['quarter', 'cik', 'accession_number'])
    .execute();
  await db.schema
    .createTable('positions')
    .addColumn('quarter', 'text', (c) => c.notNull())
    .addColumn('cik', 'text', (c) => c.notNull())
    .addColumn('cusip', 'text', (c) => c.notNull())
    .addColumn('share_type', 'text', (c) => c.notNull())
    .addColumn('put_call', 'text')
    .addColumn('value', 'double precision', (c) => c.notNull())
    .addColumn('shares', 'bigint', (c) => c.notNull())
    .addColumn('is_equity', 'integer', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('positions_manager')
    .on('positions')
    .columns(['cik', 'quarter', 'cusip'])
    .execute();
  await db.schema
    .createIndex('positions_security')
    .on('positions')
    .columns(['quarter', 'cusip', 'value'])
    .execute();

  await db.schema
    .createTable('manager_quarters')
    .addColumn('cik', 'text', (c) => c.notNull())
    .addColumn('quarter', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('search_name', 'text', (c) => c.notNull())
    .addColumn('city', 'text')
    .addColumn('state', 'text')
    .addColumn('country', 'text')
    .addColumn('accession_number', 'text', (c) => c.notNull())
    .addColumn('form_type', 'text', (c) => c.notNull())
    .addColumn('filed_at', 'text', (c) => c.notNull())
    .addColumn('total_value', 'double precision', (c) => c.notNull())
    .addColumn('position_count', 'bigint', (c) => c.notNull())
    .addColumn('equity_value', 'double precision', (c) => c.notNull())
    .addColumn('options_count', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('manager_quarters_pk', ['cik', 'quarter'])
    .execute();
  await db.schema
    .createIndex('manager_quarters_value')
    .on('manager_quarters')
    .columns(['quarter', 'total_value'])
    .execute();

  await db.schema
    .createTable('security_quarters')
    .addColumn('quarter', 'text', (c) => c.notNull())
    .addColumn('cusip', 'text', (c) => c.notNull())
    .addColumn('issuer', 'text', (c) => c.notNull())
    .addColumn('search_issuer', 'text', (c) => c.notNull())
    .addColumn('title_of_class', 'text')
    .addColumn('holder_count', 'bigint', (c) => c.notNull())
    .addColumn('total_value', 'double precision', (c) => c.notNull())
    .addColumn('total_shares', 'bigint', (c) => c.notNull())
    .addColumn('equity_manager_count', 'bigint', (c) => c.notNull())
    .addColumn('equity_value', 'double precision', (c) => c.notNull())
    .addColumn('equity_shares', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('security_quarters_pk', ['quarter', 'cusip'])
    .execute();
  await db.schema
    .createIndex('security_quarters_value')
    .on('security_quarters')
    .columns(['quarter', 'total_value'])
    .execute();
  await db.schema
    .createIndex('security_quarters_crowded')
    .on('security_quarters')
    .columns(['quarter', 'equity_manager_count', 'equity_value'])
    .execute();

  await db.schema
    .createTable('holdings_quarters')
    .addColumn('quarter', 'text', (c) => c.primaryKey())
    .addColumn('manager_count', 'bigint', (c) => c.notNull())
    .addColumn('position_count', 'bigint', (c) => c.notNull())
    .addColumn('total_value', 'double precision', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('smart_money')
    .addColumn('grp', 'text', (c) => c.notNull())
    .addColumn('rank', 'bigint', (c) => c.notNull())
    .addColumn('quarter', 'text', (c) => c.notNull())
    .addColumn('previous_quarter', 'text', (c) => c.notNull())
    .addColumn('cusip', 'text', (c) => c.notNull())
    .addColumn('issuer', 'text', (c) => c.notNull())
    .addColumn('manager_count', 'bigint', (c) => c.notNull())
    .addColumn('value', 'double precision')
    .addColumn('value_change', 'double precision')
    .addColumn('shares_change', 'bigint')
    .addPrimaryKeyConstraint('smart_money_pk', ['grp', 'rank'])
    .execute();
  await db.schema
    .createTable('smart_money_summary')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('quarter', 'text', (c) => c.notNull())
    .addColumn('previous_quarter', 'text', (c) => c.notNull())
    .addColumn('managers_compared', 'bigint', (c) => c.notNull())
    .execute();
}

export async function up(db: Db): Promise<void> {
  await rawTables(db);
  await referenceTables(db);
  await derivedTables(db);
}

export async function down(db: Db): Promise<void> {
  // biome-ignore format: the list reads best as a block
  const tables = ['smart_money_summary', 'smart_money', 'holdings_quarters', 'security_quarters',
    'manager_quarters', 'positions', 'applied_filings_13f', 'advisers', 'securities', 'managers', 'info_rows_13f', 'filings_13f'];
  for (const table of tables) await db.schema.dropTable(table).execute();
}
