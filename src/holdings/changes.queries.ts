/** Reads of the load-time changes (position_changes, manager_changes, split_spans): no whole-quarter work. */
import type { Kysely, Selectable } from 'kysely';
import type { Database } from '../db/tables.js';
import type { Page } from '../http/paging.js';
import { money } from './params.js';
import { type ChangeStatus, type ManagerChangesTable, UNCHANGED_WITHIN_SHARES } from './tables.js';

/** Weights and split-adjusted shares leave the API with 4 decimals. */
export const fourDecimals = (value: number | string) => Math.round(Number(value) * 10_000) / 10_000;

export function summaryOf(row: Selectable<ManagerChangesTable>) {
  return {
    new: Number(row.new_count),
    added: Number(row.added_count),
    reduced: Number(row.reduced_count),
    unchanged: Number(row.unchanged_count),
    sold_out: Number(row.sold_out_count),
  };
}

/** The manager quarter's change summary: the quarter asked for, or the manager's latest. */
export async function managerChanges(db: Kysely<Database>, cik: string, quarter: string | undefined) {
  let query = db.selectFrom('manager_changes').selectAll().where('cik', '=', cik);
  if (quarter) query = query.where('quarter', '=', quarter);
  return query.orderBy('quarter', 'desc').limit(1).executeTakeFirst();
}

export async function changeRows(
  db: Kysely<Database>,
  cik: string,
  quarter: string,
  status: ChangeStatus | undefined,
  page: Page,
) {
  let query = db
    .selectFrom('position_changes as c')
    .innerJoin('securities as s', 's.cusip', 'c.cusip')
    .select(['c.cusip', 's.issuer', 's.ticker', 'c.status', 'c.shares_before', 'c.shares_after'])
    .select(['c.value_before', 'c.value_after', 'c.weight_before', 'c.weight_after', 'c.split_factor'])
    .where('c.cik', '=', cik)
    .where('c.quarter', '=', quarter);
  if (status) query = query.where('c.status', '=', status);
  const rows = await query.orderBy('c.ordinal').limit(page.limit).offset(page.offset).execute();
  return rows.map((row) => {
    const sharesBefore = fourDecimals(row.shares_before);
    const sharesAfter = Number(row.shares_after);
    return {
      cusip: row.cusip,
      issuer: row.issuer,
      ticker: row.ticker ?? null,
      status: row.status,
      shares_before: sharesBefore,
      shares_after: sharesAfter,
      shares_change: fourDecimals(sharesAfter - sharesBefore),
      value_before: money(row.value_before),
      value_after: money(row.value_after),
      value_change: money(Number(row.value_after) - Number(row.value_before)),
      weight_before: fourDecimals(row.weight_before),
      weight_after: fourDecimals(row.weight_after),
      split_factor: row.split_factor === null ? null : Number(row.split_factor),
    };
  });
}

/** The manager's filed quarters (ascending) with their total values. */
async function filedQuarters(db: Kysely<Database>, cik: string) {
  return db
    .selectFrom('manager_quarters')
    .select(['quarter', 'total_value'])
    .where('cik', '=', cik)
    .orderBy('quarter')
    .execute();
}

/**
 * A manager's history in one security: its equity position in every quarter it filed since it first
 * held it, with the status computed by the same rule as the load-time changes (changes.ts:
 * split-adjusted shares, less than one share apart is unchanged). Undefined when it never held it.
 */
export async function positionHistory(db: Kysely<Database>, cik: string, cusip: string) {
  const quarters = await filedQuarters(db, cik);
  if (quarters.length === 0) return undefined;
  const held = await db
    .selectFrom('positions')
    .select(['quarter', 'shares', 'value'])
    .where('cik', '=', cik)
    .where(
      'quarter',
      'in',
      quarters.map((q) => q.quarter),
    )
    .where('cusip', '=', cusip)
    .where('is_equity', '=', 1)
    .execute();
  if (held.length === 0) return undefined;
  const spans = await db
    .selectFrom('split_spans')
    .select(['from_quarter', 'to_quarter', 'factor'])
    .where('cusip', '=', cusip)
    .execute();
  const factor = (from: string, to: string) =>
    Number(spans.find((s) => s.from_quarter === from && s.to_quarter === to)?.factor ?? 1);
  const byQuarter = new Map(held.map((row) => [row.quarter, row]));
  const first = held.map((row) => row.quarter).sort()[0] as string;
  const history = [];
  let previous: { quarter: string; shares: number } | null = null;
  for (const { quarter, total_value } of quarters) {
    if (quarter < first) continue;
    const row = byQuarter.get(quarter);
    const shares = row ? Number(row.shares) : 0;
    const value = row ? Number(row.value) : 0;
    history.push({
      quarter,
      shares,
      value: money(value),
      weight: Number(total_value) > 0 ? fourDecimals((value / Number(total_value)) * 100) : 0,
      status: statusOf(previous, quarter, row ? shares : null, factor),
    });
    previous = row ? { quarter, shares } : previous && { quarter, shares: 0 };
  }
  return history;
}

function statusOf(
  previous: { quarter: string; shares: number } | null,
  quarter: string,
  shares: number | null,
  factor: (from: string, to: string) => number,
): ChangeStatus {
  if (shares === null) return 'sold_out';
  if (previous === null || previous.shares === 0) return 'new';
  const before = previous.shares * factor(previous.quarter, quarter);
  if (Math.abs(shares - before) < UNCHANGED_WITHIN_SHARES) return 'unchanged';
  return shares > before ? 'added' : 'reduced';
}
