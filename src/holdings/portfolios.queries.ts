import type { Kysely, Selectable } from 'kysely';
import { readIndex, type Sized } from '../db/read-indexes.js';
import { matchesSearch } from '../db/search.js';
import type { Database } from '../db/tables.js';
import { type Page, totalFromPage } from '../http/paging.js';
import { money, percent } from './params.js';
import {
  type PackedPortfolio,
  type PackedPositions,
  putCallOf,
  SECURITY_POSITIONS,
  shareTypeOf,
  unpackPortfolio,
  unpackPositions,
} from './portfolio-pack.js';
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

interface HeldPositions extends Sized {
  readonly pack: PackedPositions | undefined;
}

async function readSecurityPositions(
  db: Kysely<Database>,
  quarter: string,
  cusip: string,
): Promise<HeldPositions> {
  const row = await db
    .selectFrom('security_positions')
    .select('positions')
    .where('quarter', '=', quarter)
    .where('cusip', '=', cusip)
    .executeTakeFirst();
  return {
    pack: row && unpackPositions(SECURITY_POSITIONS, row.positions),
    bytes: 256 + (row?.positions.byteLength ?? 0),
  };
}

/**
 * A security quarter's packed positions (every manager, every type), in the holders list's order;
 * kept as a read index when `maxBytes` allows (db/read-indexes.ts): the most held security's are
 * ~200 KB, read from SQLite's overflow pages in ~0.2 ms, per quarter, for every request otherwise.
 */
export async function securityPositions(
  db: Kysely<Database>,
  quarter: string,
  cusip: string,
  maxBytes = 0,
): Promise<PackedPositions | undefined> {
  const read = () => readSecurityPositions(db, quarter, cusip);
  return ((await readIndex(db, `security-positions|${quarter}|${cusip}`, maxBytes, read)) ?? (await read()))
    .pack;
}

/**
 * Positions in one CUSIP (one per manager, share type and put/call), by value descending, then CIK,
 * share type and put/call (null first): a slice of the security's packed positions, its managers
 * named from their quarter (a position whose manager quarter is missing is left out, as a join would).
 */
export async function listHolders(
  db: Kysely<Database>,
  quarter: string,
  cusip: string,
  page: Page,
  maxBytes: number,
) {
  const pack = await securityPositions(db, quarter, cusip, maxBytes);
  if (!pack) return { total: 0, data: [] };
  const end = Math.min(pack.count, page.offset + page.limit);
  const ciks = new Set<string>();
  for (let i = page.offset; i < end; i++) ciks.add(pack.key(i));
  const managers =
    ciks.size === 0
      ? []
      : await db
          .selectFrom('manager_quarters')
          .select(['cik', 'name', 'city', 'state', 'total_value'])
          .where('quarter', '=', quarter)
          .where('cik', 'in', [...ciks])
          .execute();
  const byCik = new Map(managers.map((m) => [m.cik, m]));
  const data = [];
  for (let i = page.offset; i < end; i++) {
    const manager = byCik.get(pack.key(i));
    if (!manager) continue;
    const code = pack.codes[i] as number;
    const value = pack.values[i] as number;
    data.push({
      cik: manager.cik,
      name: manager.name,
      city: manager.city,
      state: manager.state,
      value: money(value),
      shares: pack.shares[i] as number,
      share_type: shareTypeOf(code),
      put_call: putCallOf(code),
      weight: percent(value, manager.total_value),
    });
  }
  return { total: pack.count, data };
}

export async function managerQuarter(db: Kysely<Database>, cik: string, quarter: string | undefined) {
  let query = db.selectFrom('manager_quarters').selectAll().where('cik', '=', cik);
  if (quarter) query = query.where('quarter', '=', quarter);
  return query.orderBy('quarter', 'desc').limit(1).executeTakeFirst();
}

/**
 * The manager quarter's packed positions. Every derived manager quarter has them (written with it;
 * backfilled by `regdata migrate` for a database derived before they existed).
 */
export async function portfolioPack(
  db: Kysely<Database>,
  cik: string,
  quarter: string,
): Promise<PackedPortfolio> {
  const row = await db
    .selectFrom('manager_portfolios')
    .select('positions')
    .where('cik', '=', cik)
    .where('quarter', '=', quarter)
    .executeTakeFirst();
  if (!row)
    throw new Error(`manager quarter ${cik} ${quarter} has no packed portfolio: run \`regdata migrate\``);
  return unpackPortfolio(row.positions);
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
