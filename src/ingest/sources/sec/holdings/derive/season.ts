/**
 * Whole-history summaries rebuilt by every derivation (small tables, a few GROUP BYs):
 * - security_latest: each CUSIP's latest quarter with an equity holder and its figures then, which
 *   the security search reads (`GET /api/securities`);
 * - filing_progress and filing_days: each quarter's filing season (`GET /api/filing-progress`),
 *   counted on the date of each manager's first 13F-HR for the quarter (the base filing), against
 *   the deadline of 45 days after the quarter's end (SEC Rule 13f-1; a deadline on a weekend or
 *   holiday moves to the next business day at SEC, which this count does not model).
 */
import { sql } from 'kysely';
import { insertRows } from '../../../../../db/bulk.js';
import type { DbHandle } from '../../../../../db/connect.js';
import { quarterEnd } from '../../../../../holdings/identifiers.js';
import type { Executor } from './executor.js';

export const FILING_DEADLINE_DAYS = 45;

export function filingDeadline(quarter: string): string {
  const end = new Date(`${quarterEnd(quarter)}T00:00:00Z`);
  end.setUTCDate(end.getUTCDate() + FILING_DEADLINE_DAYS);
  return end.toISOString().slice(0, 10);
}

async function writeSecurityLatest(executor: Executor): Promise<void> {
  await executor.deleteFrom('security_latest').execute();
  await sql`
    insert into security_latest (cusip, issuer, search_issuer, title_of_class, latest_quarter, holder_count, total_value)
    select q.cusip, q.issuer, q.search_issuer, q.title_of_class, q.quarter, q.equity_manager_count, q.equity_value
    from security_quarters q
    join (select cusip, max(quarter) as quarter from security_quarters
          where equity_manager_count > 0 group by cusip) l on l.quarter = q.quarter and l.cusip = q.cusip
  `.execute(executor);
}

async function writeFilingSeasons(handle: DbHandle, executor: Executor, quarters: readonly string[]) {
  await executor.deleteFrom('filing_progress').execute();
  await executor.deleteFrom('filing_days').execute();
  await sql`
    insert into filing_days (quarter, filed_on, managers)
    select m.quarter, f.filing_date, count(*)
    from manager_quarters m join filings_13f f on f.accession_number = m.accession_number
    group by m.quarter, f.filing_date
  `.execute(executor);
  const totals = await executor.selectFrom('holdings_quarters').selectAll().execute();
  const rows = [];
  for (const [index, quarter] of quarters.entries()) {
    const previous = index > 0 ? (quarters[index - 1] as string) : null;
    const deadline = filingDeadline(quarter);
    const { rows: counts } = await sql<{ continuing: number; late: number }>`
      select
        (select count(*) from manager_quarters m join manager_quarters p on p.cik = m.cik and p.quarter = ${previous}
         where m.quarter = ${quarter}) as continuing,
        (select coalesce(sum(d.managers), 0) from filing_days d where d.quarter = ${quarter} and d.filed_on > ${deadline}) as late
    `.execute(executor);
    const here = totals.find((t) => t.quarter === quarter);
    const before = totals.find((t) => t.quarter === previous);
    rows.push({
      quarter,
      deadline,
      previous_quarter: previous,
      previous_filers: Number(before?.manager_count ?? 0),
      managers: Number(here?.manager_count ?? 0),
      continuing: Number(counts[0]?.continuing ?? 0),
      total_value: Number(here?.total_value ?? 0),
      late: Number(counts[0]?.late ?? 0),
    });
  }
  await insertRows(handle, 'filing_progress', rows, executor);
}

/** Rebuilds security_latest, filing_progress and filing_days; `quarters` are the loaded ones, ascending. */
export async function writeSeasonSummaries(
  handle: DbHandle,
  executor: Executor,
  quarters: readonly string[],
): Promise<void> {
  await writeSecurityLatest(executor);
  await writeFilingSeasons(handle, executor, quarters);
}
