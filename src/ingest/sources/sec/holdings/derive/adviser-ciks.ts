/**
 * Fills `advisers.cik` from the 13F filings: Form ADV is filed on IARD and carries no CIK, but 13F
 * cover pages since 2023 carry the filer's CRD number and SEC file number next to its CIK
 * (UPSTREAM.md §5.3). An adviser whose CRD appears on a cover page gets the CIK of the latest such
 * filing; failing that, one whose SEC file number does. Advisers with no match keep the CIK they
 * have (the demo's, or one linked by an earlier load). Run after either side is loaded. Each
 * statement reads filings through an index (filings_13f_crd, filings_13f_sec_file).
 */
import { sql } from 'kysely';
import type { Executor } from './executor.js';

export async function linkAdviserCiks(executor: Executor): Promise<void> {
  await sql`
    update advisers set cik = (
      select f.cik from filings_13f f where f.crd_number = advisers.crd
      order by f.filing_date desc, f.accession_number desc limit 1
    )
    where crd in (select crd_number from filings_13f where crd_number is not null)
  `.execute(executor);
  await sql`
    update advisers set cik = (
      select f.cik from filings_13f f where f.sec_file_number = advisers.sec_number
      order by f.filing_date desc, f.accession_number desc limit 1
    )
    where sec_number in (select sec_file_number from filings_13f where sec_file_number is not null)
      and crd not in (select crd_number from filings_13f where crd_number is not null)
  `.execute(executor);
}
