import type { Kysely } from 'kysely';
import { autoIncrementKey } from '../dialect.js';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('institutions')
    .addColumn('cert', 'integer', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('search_name', 'text', (c) => c.notNull())
    .addColumn('city', 'text')
    .addColumn('state', 'text')
    .addColumn('zip', 'text')
    .addColumn('charter_class', 'text')
    .addColumn('asset_size', 'double precision')
    .addColumn('established', 'text')
    .addColumn('holding_company', 'text')
    .addColumn('active', 'integer', (c) => c.notNull())
    .addColumn('inactive_date', 'text')
    .addColumn('rssd_id', 'bigint')
    .addColumn('website', 'text')
    .execute();
  await db.schema
    .createIndex('institutions_active_assets')
    .on('institutions')
    .columns(['active', 'asset_size', 'cert'])
    .execute();
  await db.schema
    .createIndex('institutions_state_assets')
    .on('institutions')
    .columns(['state', 'active', 'asset_size'])
    .execute();
  await db.schema.createIndex('institutions_rssd').on('institutions').column('rssd_id').execute();

  await db.schema
    .createTable('financials')
    .addColumn('cert', 'integer', (c) => c.notNull())
    .addColumn('report_date', 'text', (c) => c.notNull())
    .addColumn('total_assets', 'double precision')
    .addColumn('total_deposits', 'double precision')
    .addColumn('total_loans', 'double precision')
    .addColumn('total_equity', 'double precision')
    .addColumn('net_income', 'double precision')
    .addColumn('roa', 'double precision')
    .addColumn('roe', 'double precision')
    .addColumn('efficiency_ratio', 'double precision')
    .addColumn('npl_ratio', 'double precision')
    .addColumn('tier1_leverage', 'double precision')
    .addColumn('equity_ratio', 'double precision')
    .addColumn('loan_to_deposit', 'double precision')
    .addColumn('charge_off_rate', 'double precision')
    .addColumn('source', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('financials_pk', ['cert', 'report_date'])
    .execute();
  await db.schema
    .createIndex('financials_date_assets')
    .on('financials')
    .columns(['report_date', 'total_assets', 'cert'])
    .execute();

  await db.schema
    .createTable('failures')
    .addColumn('id', 'integer', autoIncrementKey(db))
    .addColumn('cert', 'integer')
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('city', 'text')
    .addColumn('state', 'text')
    .addColumn('closing_date', 'text', (c) => c.notNull())
    .addColumn('acquiring_institution', 'text')
    .addColumn('resolution_type', 'text')
    .addColumn('insurance_fund', 'text')
    .addColumn('total_assets', 'double precision')
    .addColumn('total_deposits', 'double precision')
    .addColumn('estimated_loss', 'double precision')
    .execute();
  await db.schema.createIndex('failures_closing').on('failures').columns(['closing_date', 'cert']).execute();
  await db.schema
    .createIndex('failures_state_closing')
    .on('failures')
    .columns(['state', 'closing_date'])
    .execute();

  await db.schema
    .createTable('macro_series')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('units', 'text')
    .addColumn('frequency', 'text', (c) => c.notNull())
    .addColumn('seasonal_adjustment', 'text')
    .addColumn('last_updated', 'text')
    .execute();
  await db.schema
    .createTable('macro_observations')
    .addColumn('series_id', 'text', (c) => c.notNull())
    .addColumn('date', 'text', (c) => c.notNull())
    .addColumn('value', 'double precision', (c) => c.notNull())
    .addPrimaryKeyConstraint('macro_observations_pk', ['series_id', 'date'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['macro_observations', 'macro_series', 'failures', 'financials', 'institutions']) {
    await db.schema.dropTable(table).execute();
  }
}
