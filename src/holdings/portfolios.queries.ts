import type { Kysely, Selectable } from 'kysely';
import { matchesSearch } from '../db/search.js';
import type { Database } from '../db/tables.js';
import { type Page, totalFromPage } from '../http/paging.js';
import { money, percent } from './params.js';
import { type PackedPortfolio, unpackPortfolio } from './portfolio-pack.js';
import type { ManagerQuartersTable } from './tables.js';

/** What a manager list record shows: the page reads only these columns. */
const MANAGER_RECORD_COLUMNS = [
  'cik',
  'name',
  'city',
  'state',
  'total_value',
  'position_count',
  'filed_at',
  'form_type',
] as const;

export function toManagerListRecord(
  row: Pick<Selectable<ManagerQuartersTable>, (typeof MANAGER_RECORD_COLUMNS)[number]>,
) {
  return {
    cik: row.cik,
    name: row.name,
    city: row.city,
    state: row.state,
    total_value: money(row.total_value),
    position_count: Number(row.position_count),
    filed_at: row.filed_at,
    form_type: row.form_type,
  };
}

function managersOf(db: Kysely<Database>, quarter: string, q: string | undefined) {
  let query = db.selectFrom('manager_quarters').where('quarter', '=', quarter);
  if (q) query = query.where(matchesSearch('search_name', q));
  return query;
}

/**
 * A quarter's managers by value. The total: implied by a short page, else the quarter's manager
 * count derived with it (holdings_quarters.manager_count is count(*) of these rows) when no name
 * filter applies, else counted.
 */
export async function listManagers(db: Kysely<Database>, quarter: string, q: string | undefined, page: Page) {
  const rows = await managersOf(db, quarter, q)
    .select(MANAGER_RECORD_COLUMNS)
    .orderBy('total_value', 'desc')
    .orderBy('cik')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
  const total =
    totalFromPage(rows.length, page) ??
    (q
      ? await managersOf(db, quarter, q)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      : await db
          .selectFrom('holdings_quarters')
          .select('manager_count as n')
          .where('quarter', '=', quarter)
          .executeTakeFirstOrThrow()
    ).n;
  return { total: Number(total), data: rows.map(toManagerListRecord) };
}

function securitiesOf(db: Kysely<Database>, quarter: string, q: string | undefined) {
  let query = db.selectFrom('security_quarters as q').where('q.quarter', '=', quarter);
  if (q) query = query.where(matchesSearch('q.search_issuer', q));
  return query;
}

export async function listSecurities(
  db: Kysely<Database>,
  quarter: string,
  q: string | undefined,
  page: Page,
) {
  const [countRow, rows] = await Promise.all([
    securitiesOf(db, quarter, q)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow(),
    securitiesOf(db, quarter, q)
      .leftJoin('securities as s', 's.cusip', 'q.cusip')
      .select(['q.cusip', 'q.issuer', 'q.title_of_class', 's.ticker', 'q.holder_count', 'q.total_value'])
      .orderBy('q.total_value', 'desc')
      .orderBy('q.cusip')
      .limit(page.limit)
      .offset(page.offset)
      .execute(),
  ]);
  const data = rows.map((row) => ({
    cusip: row.cusip,
    issuer: row.issuer,
    title_of_class: row.title_of_class,
    ticker: row.ticker ?? null,
    holder_count: Number(row.holder_count),
    total_value: money(row.total_value),
  }));
  return { total: Number(countRow.n), data };
}

export async function findSecurityQuarter(db: Kysely<Database>, quarter: string, cusip: string) {
  const row = await db
    .selectFrom('security_quarters as q')
    .leftJoin('securities as s', 's.cusip', 'q.cusip')
    .selectAll('q')
    .select('s.ticker')
    .where('q.quarter', '=', quarter)
    .where('q.cusip', '=', cusip)
    .executeTakeFirst();
  if (!row) return undefined;
  return {
    cusip: row.cusip,
    issuer: row.issuer,
    title_of_class: row.title_of_class,
    ticker: row.ticker ?? null,
    holder_count: Number(row.holder_count),
    total_value: money(row.total_value),
    total_shares: Number(row.total_shares),
  };
}

/** Positions in one CUSIP (one row per position), by value descending. */
export async function listHolders(db: Kysely<Database>, quarter: string, cusip: string, page: Page) {
  const base = db
    .selectFrom('positions as p')
    .innerJoin('manager_quarters as m', (join) =>
      join.onRef('m.cik', '=', 'p.cik').onRef('m.quarter', '=', 'p.quarter'),
    )
    .where('p.quarter', '=', quarter)
    .where('p.cusip', '=', cusip);
  const [countRow, rows] = await Promise.all([
    // Every position belongs to a manager_quarters row (same derivation), so count without the join.
    db
      .selectFrom('positions')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('quarter', '=', quarter)
      .where('cusip', '=', cusip)
      .executeTakeFirstOrThrow(),
    base
      .select(['p.cik', 'm.name', 'm.city', 'm.state', 'p.value', 'p.shares', 'p.share_type', 'p.put_call'])
      .select('m.total_value')
      .orderBy('p.value', 'desc')
      .orderBy('p.cik')
      .orderBy('p.share_type')
      .orderBy('p.put_call')
      .limit(page.limit)
      .offset(page.offset)
      .execute(),
  ]);
  const data = rows.map((row) => ({
    cik: row.cik,
    name: row.name,
    city: row.city,
    state: row.state,
    value: money(row.value),
    shares: Number(row.shares),
    share_type: row.share_type,
    put_call: row.put_call,
    weight: percent(row.value, row.total_value),
  }));
  return { total: Number(countRow.n), data };
}

export async function managerQuarter(db: Kysely<Database>, cik: string, quarter: string | undefined) {
  let query = db.selectFrom('manager_quarters').selectAll().where('cik', '=', cik);
  if (quarter) query = query.where('quarter', '=', quarter);
  return query.orderBy('quarter', 'desc').limit(1).executeTakeFirst();
}

export async function portfolioHoldings(
  db: Kysely<Database>,
  cik: string,
  quarter: string,
  totalValue: number,
) {
  const rows = await db
    .selectFrom('positions as p')
    .innerJoin('securities as s', 's.cusip', 'p.cusip')
    .select(['p.cusip', 's.issuer', 's.title_of_class', 's.ticker', 'p.value', 'p.shares', 'p.share_type'])
    .select('p.put_call')
    .where('p.cik', '=', cik)
    .where('p.quarter', '=', quarter)
    .orderBy('p.value', 'desc')
    .orderBy('p.cusip')
    .orderBy('p.share_type')
    .orderBy('p.put_call', (ob) => ob.asc().nullsFirst())
    .execute();
  return rows.map((row) => ({
    cusip: row.cusip,
    issuer: row.issuer,
    title_of_class: row.title_of_class,
    ticker: row.ticker ?? null,
    value: money(row.value),
    shares: Number(row.shares),
    share_type: row.share_type,
    put_call: row.put_call,
    weight: percent(row.value, totalValue),
  }));
}

/** The manager quarter's packed positions; undefined when not packed (a database not migrated yet). */
export async function portfolioPack(
  db: Kysely<Database>,
  cik: string,
  quarter: string,
): Promise<PackedPortfolio | undefined> {
  const row = await db
    .selectFrom('manager_portfolios')
    .select('positions')
    .where('cik', '=', cik)
    .where('quarter', '=', quarter)
    .executeTakeFirst();
  return row && unpackPortfolio(row.positions);
}

export async function timeline(db: Kysely<Database>, cik: string) {
  const rows = await db
    .selectFrom('manager_quarters')
    .select(['quarter', 'total_value', 'position_count', 'equity_value', 'options_count'])
    .where('cik', '=', cik)
    .orderBy('quarter')
    .execute();
  return rows.map((row) => ({
    quarter: row.quarter,
    total_value: money(row.total_value),
    position_count: Number(row.position_count),
    equity_value: money(row.equity_value),
    options_count: Number(row.options_count),
  }));
}
