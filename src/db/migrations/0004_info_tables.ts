/**
 * Raw information-table rows are stored packed per filing (`info_tables_13f`, one record per filing
 * or per contiguous run of its rows) instead of one table row per holding (`info_rows_13f`). Only
 * the derivation reads them, always a whole filing at a time; a data set's ~3.8 million rows become
 * ~9,000 records, which the load stages and the swap copies in a fraction of the time. The rows are
 * a JSON array of arrays in the field order of INFO_ROW_FIELDS, values as filed (a binary form since 0017).
 * Existing rows are converted in place (both directions), in SQL, inside the migration.
 */
import { type Kysely, sql } from 'kysely';
import { isPostgres } from '../dialect.js';

type Db = Kysely<unknown>;

export async function up(db: Db): Promise<void> {
  await db.schema
    .createTable('info_tables_13f')
    .addColumn('accession_number', 'text', (c) => c.notNull())
    .addColumn('part', 'integer', (c) => c.notNull())
    .addColumn('row_count', 'integer', (c) => c.notNull())
    .addColumn('rows', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('info_tables_13f_pk', ['accession_number', 'part'])
    .execute();
  // Same field order as INFO_ROW_FIELDS.
  const pack = isPostgres(db)
    ? sql`json_agg(json_build_array(cusip, issuer, title_of_class, value, shares, share_type, put_call,
          investment_discretion, voting_sole, voting_shared, voting_none))::text`
    : sql`json_group_array(json_array(cusip, issuer, title_of_class, value, shares, share_type, put_call,
          investment_discretion, voting_sole, voting_shared, voting_none))`;
  await sql`
    insert into info_tables_13f (accession_number, part, row_count, rows)
    select accession_number, 0, count(*), ${pack} from info_rows_13f group by accession_number
  `.execute(db);
  await db.schema.dropTable('info_rows_13f').execute();
}

export async function down(db: Db): Promise<void> {
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
  const columns = sql`accession_number, cusip, issuer, title_of_class, value, shares, share_type, put_call,
    investment_discretion, voting_sole, voting_shared, voting_none`;
  if (isPostgres(db)) {
    await sql`
      insert into info_rows_13f (${columns})
      select t.accession_number, r->>0, r->>1, r->>2, (r->>3)::bigint, (r->>4)::bigint, r->>5, r->>6, r->>7,
             (r->>8)::bigint, (r->>9)::bigint, (r->>10)::bigint
      from info_tables_13f t, json_array_elements(t.rows::json) r
    `.execute(db);
  } else {
    await sql`
      insert into info_rows_13f (${columns})
      select t.accession_number, r.value->>0, r.value->>1, r.value->>2, r.value->>3, r.value->>4,
             r.value->>5, r.value->>6, r.value->>7, r.value->>8, r.value->>9, r.value->>10
      from info_tables_13f t, json_each(t.rows) r
    `.execute(db);
  }
  await db.schema.dropTable('info_tables_13f').execute();
}
