/**
 * Every rebuild of the identity graph (after each 13F, registrants or securities load, and the demo
 * build) reads each bank's holding company at every report date (bank-parents.ts) in (cert, report
 * date) order. Financial rows carry every call-report figure (~2 KB each), so without this index that
 * read walks the whole table: ~3 s warm, ~8 s cold at the full-scale demo's 750,000 rows, against
 * ~0.45 s from this covering index (~40 MB there; ~1 s to build). PostgreSQL keeps the key and
 * INCLUDEs the rest.
 */
import { type Kysely, sql } from 'kysely';
import { isPostgres } from '../dialect.js';

const NAME = 'financials_parents';

export async function up(db: Kysely<unknown>): Promise<void> {
  if (isPostgres(db)) {
    await sql`create index financials_parents on financials (cert, report_date) include (source, holding_company_rssd, holding_company)`.execute(
      db,
    );
    return;
  }
  await db.schema
    .createIndex(NAME)
    .on('financials')
    .columns(['cert', 'report_date', 'source', 'holding_company_rssd', 'holding_company'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex(NAME).execute();
}
