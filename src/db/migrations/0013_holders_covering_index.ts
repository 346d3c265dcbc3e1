/**
 * A security's holders page (`/api/securities/{cusip}/holders`) read from the index alone: the
 * holders index carries every column the page shows, so the page's ~50 rows are one run of index
 * entries instead of ~50 table rows spread over as many pages (a quarter's changes are stored
 * manager by manager). Measured on the full-scale demo with the CPU caches cold, as a serving process
 * has them: ~150–200 µs for the page's rows before. PostgreSQL keeps the same key and INCLUDEs the
 * rest.
 */
import { type Kysely, sql } from 'kysely';
import { isPostgres } from '../dialect.js';

const KEY = ['quarter', 'cusip', 'value_after desc', 'cik'];
const SHOWN = ['status', 'shares_after', 'shares_before', 'value_before', 'weight_after'];

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('position_changes_security').execute();
  if (isPostgres(db)) {
    await sql`create index position_changes_security on position_changes (quarter, cusip, value_after desc, cik) include (status, shares_after, shares_before, value_before, weight_after)`.execute(
      db,
    );
    return;
  }
  await db.schema
    .createIndex('position_changes_security')
    .on('position_changes')
    .columns([...KEY, ...SHOWN])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('position_changes_security').execute();
  await db.schema.createIndex('position_changes_security').on('position_changes').columns(KEY).execute();
}
