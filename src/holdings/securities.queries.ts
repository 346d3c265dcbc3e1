/** The security search, a security's quarterly history and its holders with their changes. */
import { type Kysely, sql } from 'kysely';
import { matchesSearch } from '../db/search.js';
import type { Database } from '../db/tables.js';
import type { Page } from '../http/paging.js';
import {
  type PackedChanges,
  pageRows,
  SECURITY_HOLDERS,
  SHARES_AFTER,
  SHARES_BEFORE,
  unpackChanges,
  VALUE_AFTER,
  VALUE_BEFORE,
  WEIGHT_AFTER,
} from './change-pack.js';
import { fourDecimals } from './changes.queries.js';
import { managerNames } from './manager-names.js';
import { money } from './params.js';
import { withSecurityNames } from './security-catalogue.js';
import type { ChangeStatus } from './tables.js';

export interface SecuritySearch {
  q?: string | undefined;
  ticker?: string | undefined;
  cusip?: string | undefined;
}

function searched(db: Kysely<Database>, { q, ticker, cusip }: SecuritySearch) {
  let query = db.selectFrom('security_latest as l').innerJoin('securities as s', 's.cusip', 'l.cusip');
  if (cusip) query = query.where('l.cusip', '=', cusip);
  if (ticker) query = query.where('s.ticker', '=', ticker);
  if (q) {
    const asTicker = q.trim().toUpperCase();
    query = query.where((eb) => eb.or([matchesSearch('l.search_issuer', q), eb('s.ticker', '=', asTicker)]));
  }
  return query;
}

export async function searchSecurities(db: Kysely<Database>, search: SecuritySearch, page: Page) {
  let query = searched(db, search)
    .select(['l.cusip', 's.issuer', 's.title_of_class', 's.ticker', 'l.latest_quarter', 'l.holder_count'])
    .select('l.total_value');
  if (search.q) {
    const asTicker = search.q.trim().toUpperCase();
    query = query.orderBy(sql`case when ${sql.ref('s.ticker')} = ${asTicker} then 0 else 1 end`);
  }
  const [rows, countRow] = await Promise.all([
    query.orderBy('l.total_value', 'desc').orderBy('l.cusip').limit(page.limit).offset(page.offset).execute(),
    searched(db, search)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow(),
  ]);
  const data = rows.map((row) => ({
    cusip: row.cusip,
    issuer: row.issuer,
    title_of_class: row.title_of_class,
    ticker: row.ticker ?? null,
    latest_quarter: row.latest_quarter,
    holder_count: Number(row.holder_count),
    total_value: money(row.total_value),
  }));
  return { data, total: Number(countRow.n) };
}

/** The security master's record of a CUSIP (read from memory: the catalogue of the version). */
export async function security(db: Kysely<Database>, cusip: string) {
  const { id, catalogue } = await withSecurityNames(db, (names) => {
    const id = names.idOf(cusip);
    return { id, catalogue: names, missing: id < 0 ? 1 : 0 };
  });
  if (id < 0) return undefined;
  const { issuer, title_of_class, ticker } = catalogue.entry(id);
  return { cusip, issuer, title_of_class, ticker };
}

/** Every loaded quarter (ascending), with the security's equity holders, changes and split. */
export async function securityHistory(db: Kysely<Database>, cusip: string, quarters: readonly string[]) {
  const [held, changes, splits] = await Promise.all([
    db
      .selectFrom('security_quarters')
      .select(['quarter', 'equity_manager_count', 'equity_shares', 'equity_value'])
      .where('cusip', '=', cusip)
      .where('quarter', 'in', quarters)
      .execute(),
    db
      .selectFrom('security_changes')
      .select(['quarter', 'new_count', 'sold_out_count'])
      .where('cusip', '=', cusip)
      .execute(),
    db.selectFrom('security_splits').select(['quarter', 'factor']).where('cusip', '=', cusip).execute(),
  ]);
  const heldIn = new Map(held.map((row) => [row.quarter, row]));
  const changedIn = new Map(changes.map((row) => [row.quarter, row]));
  const splitIn = new Map(splits.map((row) => [row.quarter, Number(row.factor)]));
  return quarters.map((quarter) => {
    const h = heldIn.get(quarter);
    const c = changedIn.get(quarter);
    return {
      quarter,
      holder_count: Number(h?.equity_manager_count ?? 0),
      total_shares: Number(h?.equity_shares ?? 0),
      total_value: money(h?.equity_value ?? 0),
      new_holders: Number(c?.new_count ?? 0),
      exited_holders: Number(c?.sold_out_count ?? 0),
      split_factor: splitIn.get(quarter) ?? null,
    };
  });
}

export async function holderSummary(db: Kysely<Database>, quarter: string, cusip: string) {
  const summary = await db
    .selectFrom('security_changes as c')
    .leftJoin('security_splits as s', (join) =>
      join.onRef('s.cusip', '=', 'c.cusip').onRef('s.quarter', '=', 'c.quarter'),
    )
    .select(['c.new_count', 'c.added_count', 'c.reduced_count', 'c.unchanged_count', 'c.sold_out_count'])
    .select('s.factor')
    .where('c.cusip', '=', cusip)
    .where('c.quarter', '=', quarter)
    .executeTakeFirst();
  if (!summary) return undefined;
  return {
    split_factor: summary.factor === null ? null : Number(summary.factor),
    summary: {
      new: Number(summary.new_count),
      added: Number(summary.added_count),
      reduced: Number(summary.reduced_count),
      unchanged: Number(summary.unchanged_count),
      sold_out: Number(summary.sold_out_count),
    },
  };
}

/** A holder row as stored (holders_by_security): the figures behind a holders page row. */
export interface HolderRow {
  cik: string;
  status: ChangeStatus;
  shares_before: number;
  shares_after: number;
  value_before: number;
  value_after: number;
  weight_after: number;
}

/** The security's holders and sold-out managers in `quarter`, packed in page order; undefined when none. */
export async function packedHolders(db: Kysely<Database>, quarter: string, cusip: string) {
  const row = await db
    .selectFrom('holders_by_security')
    .select('holders')
    .where('quarter', '=', quarter)
    .where('cusip', '=', cusip)
    .executeTakeFirst();
  return row ? unpackChanges(SECURITY_HOLDERS, row.holders) : undefined;
}

/** Holder i of a security's packed holders. */
export function holderAt(packed: PackedChanges, i: number): HolderRow {
  return {
    cik: packed.key(i),
    status: packed.status(i),
    shares_before: packed.column(SHARES_BEFORE)[i] as number,
    shares_after: packed.column(SHARES_AFTER)[i] as number,
    value_before: packed.column(VALUE_BEFORE)[i] as number,
    value_after: packed.column(VALUE_AFTER)[i] as number,
    weight_after: packed.column(WEIGHT_AFTER)[i] as number,
  };
}

/** A page of the security's holders and sold-out managers, by value now descending then CIK. */
export async function holderChanges(
  db: Kysely<Database>,
  quarter: string,
  cusip: string,
  status: ChangeStatus | undefined,
  page: Page,
) {
  const [packed, names] = await Promise.all([packedHolders(db, quarter, cusip), managerNames(db, quarter)]);
  if (!packed) return [];
  // Every changed manager filed the quarter, so it has a name; a row without one is left out (after
  // paging), as the join to manager_quarters did.
  return pageRows(packed, status, page.limit, page.offset)
    .map((i) => holderAt(packed, i))
    .filter((row) => names.has(row.cik))
    .map((row) => ({ cik: row.cik, name: names.get(row.cik) as string, ...shownHolding(row) }));
}

/** A holder row's figures as a holders page shows them (rounded; changes against before). */
export function shownHolding(row: Omit<HolderRow, 'cik'>) {
  return {
    shares: Number(row.shares_after),
    value: money(row.value_after),
    weight: fourDecimals(row.weight_after),
    status: row.status,
    shares_change: fourDecimals(Number(row.shares_after) - Number(row.shares_before)),
    value_change: money(Number(row.value_after) - Number(row.value_before)),
  };
}
