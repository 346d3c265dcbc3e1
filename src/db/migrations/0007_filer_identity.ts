/**
 * The 13F cover page's CRDNUMBER and SECFILENUMBER (collected since the 2022 amendments), kept on
 * `filings_13f`: they are the practical join between a 13F filer (CIK) and its Form ADV record
 * (CRD, SEC file number), which fills `advisers.cik` (UPSTREAM.md §5.3). Null for older filings.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('filings_13f').addColumn('crd_number', 'bigint').execute();
  await db.schema.alterTable('filings_13f').addColumn('sec_file_number', 'text').execute();
  await db.schema.createIndex('filings_13f_crd').on('filings_13f').column('crd_number').execute();
  await db.schema.createIndex('filings_13f_sec_file').on('filings_13f').column('sec_file_number').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('filings_13f_sec_file').execute();
  await db.schema.dropIndex('filings_13f_crd').execute();
  await db.schema.alterTable('filings_13f').dropColumn('sec_file_number').execute();
  await db.schema.alterTable('filings_13f').dropColumn('crd_number').execute();
}
