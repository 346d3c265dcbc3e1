/**
 * Set-based steps of the derivation: the applied-filings list, positions (rows summed per
 * (CUSIP, share type, put/call), values normalised to thousands of USD) and missing securities.
 */
import { sql } from 'kysely';
import { insertRows } from '../../db/bulk.js';
import type { DbHandle } from '../../db/connect.js';
import { DOLLAR_VALUES_FROM } from '../identifiers.js';
import type { Executor } from './executor.js';
import type { ResolvedQuarter } from './resolve.js';

export async function writeAppliedFilings(
  handle: DbHandle,
  executor: Executor,
  resolved: readonly ResolvedQuarter[],
): Promise<void> {
  const rows = resolved.flatMap((r) => [
    { quarter: r.quarter, cik: r.cik, accession_number: r.base.accession_number, role: 'base' },
    ...r.additions.map((a) => ({
      quarter: r.quarter,
      cik: r.cik,
      accession_number: a.accession_number,
      role: 'addition',
    })),
  ]);
  await insertRows(handle, 'applied_filings_13f', rows, executor);
}

/**
 * Positions of the given quarters. VALUE is converted to dollars first (thousands × 1000 for
 * filings made before 2023-01-03), summed exactly as integers, then divided by 1000: the stored
 * value is thousands of USD, NOT rounded (a dollar filing's 1,234,567 becomes 1234.567).
 * Share type and put/call are upper-cased and trimmed; the CASE fast paths skip the string functions
 * for values already filed that way (nearly all rows: ~10 % less CPU for this statement).
 */
export async function writePositions(executor: Executor, quarters: readonly string[]): Promise<void> {
  await sql`
    insert into positions (quarter, cik, cusip, share_type, put_call, value, shares, is_equity)
    select x.quarter, x.cik, x.cusip, x.share_type, x.put_call,
           cast(sum(x.dollars) as double precision) / 1000.0, sum(x.shares),
           case when x.share_type = 'SH' and x.put_call is null then 1 else 0 end
    from (
      select a.quarter, a.cik, upper(r.cusip) as cusip,
             case when r.share_type in ('SH', 'PRN') then r.share_type
                  else upper(trim(r.share_type)) end as share_type,
             case when r.put_call is null then null
                  else nullif(upper(trim(r.put_call)), '') end as put_call,
             case when f.filing_date < ${DOLLAR_VALUES_FROM} then r.value * 1000 else r.value end as dollars,
             r.shares
      from applied_filings_13f a
      join filings_13f f on f.accession_number = a.accession_number
      join info_rows_13f r on r.accession_number = a.accession_number
      where a.quarter in (${sql.join(quarters)})
    ) x
    group by x.quarter, x.cik, x.cusip, x.share_type, x.put_call
  `.execute(executor);
}

/**
 * Adds to `securities` every CUSIP held in these quarters that the security master lacks. The
 * distinct CUSIPs of the (already written) positions are checked first: usually none is missing,
 * and that check reads the positions index instead of every information-table row (~5× faster).
 */
export async function addMissingSecurities(executor: Executor, quarters: readonly string[]): Promise<void> {
  const missing = await sql<{ cusip: string }>`
    select d.cusip from (select distinct cusip from positions where quarter in (${sql.join(quarters)})) d
    where not exists (select 1 from securities s where s.cusip = d.cusip)
    limit 1
  `.execute(executor);
  if (missing.rows.length === 0) return;
  await sql`
    insert into securities (cusip, issuer, title_of_class, ticker)
    select upper(r.cusip), max(r.issuer), max(r.title_of_class), null
    from applied_filings_13f a
    join info_rows_13f r on r.accession_number = a.accession_number
    where a.quarter in (${sql.join(quarters)})
      and not exists (select 1 from securities s where s.cusip = upper(r.cusip))
    group by upper(r.cusip)
  `.execute(executor);
}
