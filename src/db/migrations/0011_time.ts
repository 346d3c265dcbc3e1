/**
 * Answers about time (SPEC §8): `loads`, one row per committed load (and demo part) with what it
 * replaced and its counts, for the changes feed; `financial_revisions`, the values a financials
 * load changed, old and new; `macro_vintages`, FRED/ALFRED real-time periods of each observation;
 * `crowded_days`, /api/crowded as of each filing day (derived with the quarter's positions).
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('loads')
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('loaded_at', 'text', (c) => c.notNull())
    .addColumn('upstream', 'text', (c) => c.notNull())
    .addColumn('is_demo', 'integer', (c) => c.notNull())
    // JSON: per table, `all` or the column whose staged values were replaced, and those values.
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('inserted', 'integer', (c) => c.notNull())
    .addColumn('updated', 'integer', (c) => c.notNull())
    .addColumn('removed', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('loads_pk', ['version', 'source'])
    .execute();
  await db.schema
    .createTable('financial_revisions')
    .addColumn('cert', 'integer', (c) => c.notNull())
    .addColumn('report_date', 'text', (c) => c.notNull())
    .addColumn('field', 'text', (c) => c.notNull())
    .addColumn('old', 'double precision')
    .addColumn('new', 'double precision')
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('loaded_at', 'text', (c) => c.notNull())
    .addColumn('dataset_version', 'integer', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('financial_revisions_cert')
    .on('financial_revisions')
    .columns(['cert', 'report_date', 'dataset_version'])
    .execute();
  await db.schema
    .createIndex('financial_revisions_date')
    .on('financial_revisions')
    .columns(['report_date', 'dataset_version'])
    .execute();
  await db.schema
    .createTable('macro_vintages')
    .addColumn('series_id', 'text', (c) => c.notNull())
    .addColumn('date', 'text', (c) => c.notNull())
    // The period in which `value` was the published one (ALFRED realtime_start/realtime_end;
    // 9999-12-31 while current); null value: the observation was absent from those vintages.
    .addColumn('realtime_start', 'text', (c) => c.notNull())
    .addColumn('realtime_end', 'text', (c) => c.notNull())
    .addColumn('value', 'double precision')
    .addPrimaryKeyConstraint('macro_vintages_pk', ['series_id', 'date', 'realtime_start'])
    .execute();
  // Freshness asks each source's latest report date (FFIEC's rows are often none at all: without
  // this index that question walks every row).
  await db.schema
    .createIndex('financials_source_date')
    .on('financials')
    .columns(['source', 'report_date'])
    .execute();
  await db.schema
    .createTable('crowded_days')
    .addColumn('quarter', 'text', (c) => c.notNull())
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('rank', 'integer', (c) => c.notNull())
    .addColumn('cusip', 'text', (c) => c.notNull())
    .addColumn('manager_count', 'integer', (c) => c.notNull())
    .addColumn('total_value', 'double precision', (c) => c.notNull())
    .addColumn('total_shares', 'double precision', (c) => c.notNull())
    .addPrimaryKeyConstraint('crowded_days_pk', ['quarter', 'day', 'rank'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('crowded_days').execute();
  await db.schema.dropIndex('financials_source_date').execute();
  await db.schema.dropTable('macro_vintages').execute();
  await db.schema.dropTable('financial_revisions').execute();
  await db.schema.dropTable('loads').execute();
}
