/**
 * `/api/crowded` read in its own order from the index alone. The old index (quarter,
 * equity_manager_count, equity_value) left SQLite two costs per row: a temporary B-tree for the
 * CUSIP tie-break (the answer's last ORDER BY term) and a lookup of the table row for the columns
 * shown. Keyed in the answer's order (count and value descending, CUSIP ascending) and carrying the
 * shown columns, the page is one run of index entries. Measured on the full-scale demo: ~2.0–2.5 ms
 * → ~0.85–1.0 ms for `limit=500`, ~165–220 → ~110–120 µs for the default 50 (the rest is the
 * securities join for the ticker). security_quarters holds ~30,000 rows a quarter, so the copy is
 * small. PostgreSQL keeps the same key and INCLUDEs the rest.
 */
import { type Kysely, sql } from 'kysely';
import { isPostgres } from '../dialect.js';

const NAME = 'security_quarters_crowded';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex(NAME).execute();
  if (isPostgres(db)) {
    await sql`create index security_quarters_crowded on security_quarters (quarter, equity_manager_count desc, equity_value desc, cusip) include (issuer, title_of_class, equity_shares)`.execute(
      db,
    );
    return;
  }
  await db.schema
    .createIndex(NAME)
    .on('security_quarters')
    .columns([
      'quarter',
      'equity_manager_count desc',
      'equity_value desc',
      'cusip',
      'issuer',
      'title_of_class',
      'equity_shares',
    ])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex(NAME).execute();
  await db.schema
    .createIndex(NAME)
    .on('security_quarters')
    .columns(['quarter', 'equity_manager_count', 'equity_value'])
    .execute();
}
