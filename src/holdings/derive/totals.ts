/**
 * Per-manager and per-security totals of resolved quarters, the per-quarter summary and the
 * managers table (latest cover page of each filer).
 */
import { sql } from 'kysely';
import { insertRows } from '../../db/bulk.js';
import type { DbHandle } from '../../db/connect.js';
import { searchKey } from '../../db/search.js';
import type { Executor } from './executor.js';
import type { ResolvedQuarter } from './resolve.js';

interface ManagerTotals {
  cik: string;
  quarter: string;
  total_value: number;
  position_count: number;
  equity_value: number;
  options_count: number;
}

/**
 * When every quarter is derived, all of `positions` is read with no filter, so SQLite walks the
 * (cik, quarter, cusip) index without sorting (3× faster than the per-quarter sorts); for a few
 * quarters out of many, WHERE reads only their positions.
 */
async function managerTotals(executor: Executor, quarters: readonly string[], everyQuarter: boolean) {
  const { rows } = await sql<ManagerTotals>`
    select cik, quarter, sum(value) as total_value, count(*) as position_count,
           sum(case when is_equity = 1 then value else 0 end) as equity_value,
           sum(case when put_call is not null then 1 else 0 end) as options_count
    from positions ${everyQuarter ? sql`` : sql`where quarter in (${sql.join(quarters)})`}
    group by cik, quarter
  `.execute(executor);
  return new Map(rows.map((row) => [`${row.cik}|${row.quarter}`, row]));
}

/** One manager_quarters row per resolved quarter (a 13F-HR with no rows has zero totals). */
export async function writeManagerQuarters(
  handle: DbHandle,
  executor: Executor,
  resolved: readonly ResolvedQuarter[],
  quarters: readonly string[],
  everyQuarter = false,
): Promise<void> {
  const totals = await managerTotals(executor, quarters, everyQuarter);
  const accessions = resolved.map((r) => r.latest.accession_number);
  const covers = new Map<
    string,
    { manager_name: string; city: string | null; state: string | null; country: string | null }
  >();
  for (let i = 0; i < accessions.length; i += 5000) {
    const rows = await executor
      .selectFrom('filings_13f')
      .select(['accession_number', 'manager_name', 'city', 'state', 'country'])
      .where('accession_number', 'in', accessions.slice(i, i + 5000))
      .execute();
    for (const row of rows) covers.set(row.accession_number, row);
  }
  const rows = resolved.map((r) => {
    const cover = covers.get(r.latest.accession_number);
    const total = totals.get(`${r.cik}|${r.quarter}`);
    const name = cover?.manager_name ?? r.cik;
    return {
      cik: r.cik,
      quarter: r.quarter,
      name,
      search_name: searchKey(name),
      city: cover?.city ?? null,
      state: cover?.state ?? null,
      country: cover?.country ?? null,
      accession_number: r.base.accession_number,
      form_type: r.latest.form_type,
      filed_at: r.latest.filing_date,
      total_value: Number(total?.total_value ?? 0),
      position_count: Number(total?.position_count ?? 0),
      equity_value: Number(total?.equity_value ?? 0),
      options_count: Number(total?.options_count ?? 0),
    };
  });
  await insertRows(handle, 'manager_quarters', rows, executor);
}

interface SecurityTotals {
  quarter: string;
  cusip: string;
  issuer: string;
  title_of_class: string | null;
  holder_count: number;
  total_value: number;
  total_shares: number;
  equity_manager_count: number;
  equity_value: number;
  equity_shares: number;
}

export async function writeSecurityQuarters(
  handle: DbHandle,
  executor: Executor,
  quarters: readonly string[],
): Promise<void> {
  // Two levels (per manager, then per security) instead of COUNT(DISTINCT): about 3× faster.
  const { rows } = await sql<SecurityTotals>`
    select m.quarter, m.cusip, s.issuer, s.title_of_class,
           count(*) as holder_count, sum(m.value) as total_value, sum(m.equity_shares) as total_shares,
           sum(m.is_equity) as equity_manager_count, sum(m.equity_value) as equity_value,
           sum(m.equity_shares) as equity_shares
    from (
      select quarter, cusip, cik, sum(value) as value, max(is_equity) as is_equity,
             sum(case when is_equity = 1 then value else 0 end) as equity_value,
             sum(case when is_equity = 1 then shares else 0 end) as equity_shares
      from positions where quarter in (${sql.join(quarters)})
      group by quarter, cusip, cik
    ) m
    join securities s on s.cusip = m.cusip
    group by m.quarter, m.cusip, s.issuer, s.title_of_class
  `.execute(executor);
  const records = rows.map((row) => ({
    quarter: row.quarter,
    cusip: row.cusip,
    issuer: row.issuer,
    search_issuer: searchKey(row.issuer),
    title_of_class: row.title_of_class,
    holder_count: Number(row.holder_count),
    total_value: Number(row.total_value),
    total_shares: Number(row.total_shares),
    equity_manager_count: Number(row.equity_manager_count),
    equity_value: Number(row.equity_value),
    equity_shares: Number(row.equity_shares),
  }));
  await insertRows(handle, 'security_quarters', records, executor);
}

/** Rebuilds the per-quarter summary from manager_quarters (all quarters; it is small). */
export async function writeHoldingsQuarters(executor: Executor): Promise<void> {
  await executor.deleteFrom('holdings_quarters').execute();
  await sql`
    insert into holdings_quarters (quarter, manager_count, position_count, total_value)
    select quarter, count(*), sum(position_count), sum(total_value)
    from manager_quarters group by quarter
  `.execute(executor);
}

/** Rebuilds `managers` from the latest filing (any form type) of every filer. */
export async function writeManagers(handle: DbHandle, executor: Executor): Promise<void> {
  const rows = await executor
    .selectFrom('filings_13f')
    .select(['cik', 'manager_name', 'city', 'state', 'country', 'filing_date', 'accession_number'])
    .orderBy('cik')
    .orderBy('filing_date')
    .orderBy('accession_number')
    .execute();
  const latest = new Map<string, (typeof rows)[number]>();
  for (const row of rows) latest.set(row.cik, row);
  await executor.deleteFrom('managers').execute();
  const managers = [...latest.values()].map((row) => ({
    cik: row.cik,
    name: row.manager_name,
    search_name: searchKey(row.manager_name),
    city: row.city,
    state: row.state,
    country: row.country,
  }));
  await insertRows(handle, 'managers', managers, executor);
}
