/**
 * Smart-money groups (SPEC §3) between the two most recent quarters, counting only managers with a
 * resolved 13F-HR quarter in BOTH (a manager that has not filed yet is not an exit), equity
 * positions only (SH without put/call).
 * - new_entries: managers holding the CUSIP now but not before; value = their current value.
 * - top_exits: managers holding it before but not now; value = their previous value.
 * - biggest_inflows: Σ over managers holding it now of (shares now − shares before) × (value now ÷
 *   shares now); shares before is 0 for new entries. Full exits have no current price and are not
 *   part of this sum (they are in top_exits). Only securities with a positive net inflow are kept;
 *   manager_count counts the managers that added shares.
 */
import { sql } from 'kysely';
import { insertRows } from '../../../../../db/bulk.js';
import type { DbHandle } from '../../../../../db/connect.js';
import type { Executor } from './executor.js';

interface GroupRow {
  cusip: string;
  issuer: string;
  manager_count: number;
  value: number | null;
  value_change: number | null;
  shares_change: number | null;
}

function openedOrClosed(executor: Executor, held: string, absent: string) {
  return sql<GroupRow>`
    select c.cusip, s.issuer, count(*) as manager_count, sum(c.value) as value,
           null as value_change, null as shares_change
    from positions c
    join manager_quarters other on other.cik = c.cik and other.quarter = ${absent}
    join securities s on s.cusip = c.cusip
    where c.quarter = ${held} and c.is_equity = 1
      and not exists (select 1 from positions o where o.cik = c.cik and o.quarter = ${absent}
                      and o.cusip = c.cusip and o.is_equity = 1)
    group by c.cusip, s.issuer
    order by count(*) desc, sum(c.value) desc, c.cusip
  `.execute(executor);
}

function inflows(executor: Executor, quarter: string, previous: string) {
  return sql<GroupRow>`
    select c.cusip, s.issuer,
           sum(case when c.shares > coalesce(p.shares, 0) then 1 else 0 end) as manager_count,
           null as value,
           sum((c.shares - coalesce(p.shares, 0)) * (c.value / c.shares)) as value_change,
           sum(c.shares - coalesce(p.shares, 0)) as shares_change
    from positions c
    join manager_quarters other on other.cik = c.cik and other.quarter = ${previous}
    join securities s on s.cusip = c.cusip
    left join positions p on p.cik = c.cik and p.quarter = ${previous} and p.cusip = c.cusip and p.is_equity = 1
    where c.quarter = ${quarter} and c.is_equity = 1 and c.shares > 0
    group by c.cusip, s.issuer
    having sum((c.shares - coalesce(p.shares, 0)) * (c.value / c.shares)) > 0
    order by sum((c.shares - coalesce(p.shares, 0)) * (c.value / c.shares)) desc, c.cusip
  `.execute(executor);
}

const num = (value: unknown) => (value === null || value === undefined ? null : Number(value));

/** Recomputes smart_money and smart_money_summary from the two latest quarters with data. */
export async function writeSmartMoney(handle: DbHandle, executor: Executor): Promise<void> {
  await executor.deleteFrom('smart_money').execute();
  await executor.deleteFrom('smart_money_summary').execute();
  const latest = await executor
    .selectFrom('holdings_quarters')
    .select('quarter')
    .orderBy('quarter', 'desc')
    .limit(2)
    .execute();
  if (latest.length < 2) return;
  const quarter = (latest[0] as { quarter: string }).quarter;
  const previous = (latest[1] as { quarter: string }).quarter;
  const compared = await sql<{ n: number }>`
    select count(*) as n from manager_quarters c
    join manager_quarters p on p.cik = c.cik and p.quarter = ${previous}
    where c.quarter = ${quarter}
  `.execute(executor);
  await insertRows(
    handle,
    'smart_money_summary',
    [{ id: 1, quarter, previous_quarter: previous, managers_compared: Number(compared.rows[0]?.n ?? 0) }],
    executor,
  );
  const groups: [string, GroupRow[]][] = [
    ['new_entries', (await openedOrClosed(executor, quarter, previous)).rows],
    ['biggest_inflows', (await inflows(executor, quarter, previous)).rows],
    ['top_exits', (await openedOrClosed(executor, previous, quarter)).rows],
  ];
  for (const [grp, rows] of groups) {
    const records = rows.map((row, index) => ({
      grp,
      rank: index + 1,
      quarter,
      previous_quarter: previous,
      cusip: row.cusip,
      issuer: row.issuer,
      manager_count: Number(row.manager_count),
      value: num(row.value),
      value_change: num(row.value_change),
      shares_change: num(row.shares_change),
    }));
    await insertRows(handle, 'smart_money', records, executor);
  }
}
