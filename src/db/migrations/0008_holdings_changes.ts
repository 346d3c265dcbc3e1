/**
 * Quarter-over-quarter 13F changes, derived at load time (SPEC §6): every equity position of a
 * manager's quarter compared with its previous filed quarter (`position_changes`, sold-out rows
 * included), per-manager and per-security summaries of them, and the stock splits detected from
 * the holders' own share counts (`security_splits`, and `split_spans`: the product of the splits
 * between any two loaded quarters, for managers that skipped a quarter). Also per security its
 * latest quarter held (`security_latest`, the security search) and per quarter the filing season's
 * progress (`filing_progress`, `filing_days`).
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
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
  // A manager's changes page: by |value_change| descending, then CUSIP (ordinal, set at load time).
  await db.schema
    .createIndex('position_changes_manager')
    .on('position_changes')
    .columns(['cik', 'quarter', 'ordinal'])
    .unique()
    .execute();
  // A security's holders page: by current value descending, then CIK.
  await db.schema
    .createIndex('position_changes_security')
    .on('position_changes')
    .columns(['quarter', 'cusip', 'value_after desc', 'cik'])
    .execute();

  await db.schema
    .createTable('manager_changes')
    .addColumn('cik', 'text', (c) => c.notNull())
    .addColumn('quarter', 'text', (c) => c.notNull())
    .addColumn('previous_quarter', 'text')
    .addColumn('new_count', 'integer', (c) => c.notNull())
    .addColumn('added_count', 'integer', (c) => c.notNull())
    .addColumn('reduced_count', 'integer', (c) => c.notNull())
    .addColumn('unchanged_count', 'integer', (c) => c.notNull())
    .addColumn('sold_out_count', 'integer', (c) => c.notNull())
    .addColumn('value_before', 'double precision', (c) => c.notNull())
    .addColumn('value_after', 'double precision', (c) => c.notNull())
    .addPrimaryKeyConstraint('manager_changes_pk', ['cik', 'quarter'])
    .execute();

  await db.schema
    .createTable('security_changes')
    .addColumn('quarter', 'text', (c) => c.notNull())
    .addColumn('cusip', 'text', (c) => c.notNull())
    .addColumn('new_count', 'integer', (c) => c.notNull())
    .addColumn('added_count', 'integer', (c) => c.notNull())
    .addColumn('reduced_count', 'integer', (c) => c.notNull())
    .addColumn('unchanged_count', 'integer', (c) => c.notNull())
    .addColumn('sold_out_count', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('security_changes_pk', ['cusip', 'quarter'])
    .execute();

  await db.schema
    .createTable('security_splits')
    .addColumn('quarter', 'text', (c) => c.notNull())
    .addColumn('previous_quarter', 'text', (c) => c.notNull())
    .addColumn('cusip', 'text', (c) => c.notNull())
    .addColumn('factor', 'double precision', (c) => c.notNull())
    .addColumn('holders_compared', 'integer', (c) => c.notNull())
    .addColumn('median_ratio', 'double precision', (c) => c.notNull())
    .addPrimaryKeyConstraint('security_splits_pk', ['cusip', 'quarter'])
    .execute();

  await db.schema
    .createTable('split_spans')
    .addColumn('from_quarter', 'text', (c) => c.notNull())
    .addColumn('to_quarter', 'text', (c) => c.notNull())
    .addColumn('cusip', 'text', (c) => c.notNull())
    .addColumn('factor', 'double precision', (c) => c.notNull())
    .addPrimaryKeyConstraint('split_spans_pk', ['from_quarter', 'to_quarter', 'cusip'])
    .execute();

  await db.schema
    .createTable('security_latest')
    .addColumn('cusip', 'text', (c) => c.primaryKey())
    .addColumn('issuer', 'text', (c) => c.notNull())
    .addColumn('search_issuer', 'text', (c) => c.notNull())
    .addColumn('title_of_class', 'text')
    .addColumn('latest_quarter', 'text', (c) => c.notNull())
    .addColumn('holder_count', 'integer', (c) => c.notNull())
    .addColumn('total_value', 'double precision', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('security_latest_value')
    .on('security_latest')
    .columns(['total_value desc', 'cusip'])
    .execute();
  await db.schema.createIndex('securities_ticker').on('securities').column('ticker').execute();

  await db.schema
    .createTable('filing_progress')
    .addColumn('quarter', 'text', (c) => c.primaryKey())
    .addColumn('deadline', 'text', (c) => c.notNull())
    .addColumn('previous_quarter', 'text')
    .addColumn('previous_filers', 'integer', (c) => c.notNull())
    .addColumn('managers', 'integer', (c) => c.notNull())
    .addColumn('continuing', 'integer', (c) => c.notNull())
    .addColumn('total_value', 'double precision', (c) => c.notNull())
    .addColumn('late', 'integer', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('filing_days')
    .addColumn('quarter', 'text', (c) => c.notNull())
    .addColumn('filed_on', 'text', (c) => c.notNull())
    .addColumn('managers', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('filing_days_pk', ['quarter', 'filed_on'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('securities_ticker').execute();
  // biome-ignore format: the list reads best as a block
  const tables = ['filing_days', 'filing_progress', 'security_latest', 'split_spans', 'security_splits',
    'security_changes', 'manager_changes', 'position_changes'];
  for (const table of tables) await db.schema.dropTable(table).execute();
}
