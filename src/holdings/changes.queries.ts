/** Reads of the load-time changes (manager_changes, changes_by_manager, split_spans): no whole-quarter work. */
import type { Kysely, Selectable } from 'kysely';
import type { Database } from '../db/tables.js';
import type { Page } from '../http/paging.js';
import { MANAGER_CHANGES, managerChangeAt, pageRows, unpackChanges } from './change-pack.js';
import { money } from './params.js';
import { isEquityCode, type PackedPositions, SECURITY_POSITIONS } from './portfolio-pack.js';
import { securityPositions } from './portfolios.queries.js';
import {
  type ChangeStatus,
  type ManagerChangesTable,
  type PositionChange,
  UNCHANGED_WITHIN_SHARES,
} from './tables.js';

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

/** Issuer, class and ticker of some CUSIPs (those in the security master). */
export async function securitiesOf(db: Kysely<Database>, cusips: readonly string[]) {
  const out = new Map<string, { issuer: string; title_of_class: string | null; ticker: string | null }>();
  for (let i = 0; i < cusips.length; i += 500) {
    const rows = await db
      .selectFrom('securities')
      .select(['cusip', 'issuer', 'title_of_class', 'ticker'])
      .where('cusip', 'in', cusips.slice(i, i + 500))
      .execute();
    for (const row of rows) out.set(row.cusip, { ...row, ticker: row.ticker ?? null });
  }
  return out;
}

/** A change as the changes page shows it (rounded; changes against before). */
export function shownChange(
  row: PositionChange,
  security: { issuer: string; ticker: string | null } | undefined,
) {
  const sharesBefore = fourDecimals(row.shares_before);
  return {
    cusip: row.cusip,
    issuer: security?.issuer ?? '',
    ticker: security?.ticker ?? null,
    status: row.status,
    shares_before: sharesBefore,
    shares_after: row.shares_after,
    shares_change: fourDecimals(row.shares_after - sharesBefore),
    value_before: money(row.value_before),
    value_after: money(row.value_after),
    value_change: money(row.value_after - row.value_before),
    weight_before: fourDecimals(row.weight_before),
    weight_after: fourDecimals(row.weight_after),
    split_factor: row.split_factor,
  };
}

/** A page of a manager quarter's changes (of one status, when given), in the stored order. */
export async function changeRows(
  db: Kysely<Database>,
  cik: string,
  quarter: string,
  status: ChangeStatus | undefined,
  page: Page,
) {
  const row = await db
    .selectFrom('changes_by_manager')
    .select('changes')
    .where('cik', '=', cik)
    .where('quarter', '=', quarter)
    .executeTakeFirst();
  if (!row) return [];
  const packed = unpackChanges(MANAGER_CHANGES, row.changes);
  const shown = pageRows(packed, status, page.limit, page.offset).map((i) => managerChangeAt(packed, i));
  const master = await securitiesOf(
    db,
    shown.map((change) => change.cusip),
  );
  // Every held CUSIP has a securities row (the derivation adds them); one that had none would be left
  // out, as the join of the row-per-change table left it out.
  return shown
    .filter((change) => master.has(change.cusip))
    .map((change) => shownChange(change, master.get(change.cusip)));
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
export async function positionHistory(db: Kysely<Database>, cik: string, cusip: string, maxBytes: number) {
  const quarters = await filedQuarters(db, cik);
  if (quarters.length === 0) return undefined;
  const packs = await Promise.all(
    quarters.map(async ({ quarter }) => ({
      quarter,
      pack: await securityPositions(db, quarter, cusip, maxBytes),
    })),
  );
  const held = equityPositionsOf(cik, packs);
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

/** The manager's equity position in each quarter's packed security positions that has one. */
function equityPositionsOf(
  cik: string,
  packs: readonly { quarter: string; pack: PackedPositions | undefined }[],
) {
  const key = Buffer.from(cik, 'latin1');
  const k = SECURITY_POSITIONS.keyBytes;
  const held: { quarter: string; shares: number; value: number }[] = [];
  for (const { quarter, pack } of packs) {
    if (!pack) continue;
    // A native search of the keys (~8,000 of them for the most held security): a match must start
    // at a key's boundary, and be the manager's equity position (it may also hold options).
    for (let at = pack.keys.indexOf(key); at >= 0; at = pack.keys.indexOf(key, at + 1)) {
      const i = at / k;
      if (Number.isInteger(i) && isEquityCode(pack.codes[i] as number)) {
        held.push({ quarter, shares: pack.shares[i] as number, value: pack.values[i] as number });
        break;
      }
    }
  }
  return held;
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
