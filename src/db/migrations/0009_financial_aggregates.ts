/**
 * `/api/v1/aggregates` precomputed (SPEC §5): per report date, grouping and group, the statistics of
 * every catalogue field, rebuilt by every load that changes financials or institutions (state and
 * charter class group by the institution's current record). One row per field so a request reads
 * only the fields it asks for: the industry series of five fields over 100 report dates is 500 rows.
 */
import { type Kysely, sql } from 'kysely';
import { isPostgres } from '../dialect.js';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('financial_aggregates')
    .addColumn('group_by', 'text', (c) => c.notNull())
    .addColumn('field', 'text', (c) => c.notNull())
    .addColumn('report_date', 'text', (c) => c.notNull())
    // '' for group_by none (served as null); `unknown` for institutions without the grouping value.
    .addColumn('grp', 'text', (c) => c.notNull())
    .addColumn('institutions', 'integer', (c) => c.notNull())
    .addColumn('count', 'integer', (c) => c.notNull())
    .addColumn('sum', 'double precision')
    .addColumn('mean', 'double precision')
    .addColumn('median', 'double precision')
    .addColumn('p25', 'double precision')
    .addColumn('p75', 'double precision')
    .addPrimaryKeyConstraint('financial_aggregates_pk', ['group_by', 'field', 'report_date', 'grp'])
    // SQLite: rows stored in key order, so a request's rows (one grouping, a few fields, a date
    // range) are contiguous and read without a lookup per row.
    .$call((table) => (isPostgres(db) ? table : table.modifyEnd(sql`without rowid`)))
    .execute();
  // Rebuilding a report date deletes its rows.
  await db.schema
    .createIndex('financial_aggregates_date')
    .on('financial_aggregates')
    .columns(['report_date'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('financial_aggregates').execute();
}
