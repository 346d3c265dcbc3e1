import { type Kysely, type SelectQueryBuilder, sql } from 'kysely';
import type { Database } from '../db/tables.js';
import type { Page } from '../http/paging.js';
import { FILTER_OPERATORS, type FieldFilter } from './fields/filters.js';

export interface ListFilters {
  reportDate: string;
  state?: string;
  fieldFilters?: readonly FieldFilter[];
}

export interface HistoryFilters {
  cert: number;
  onOrBefore?: string;
  fieldFilters?: readonly FieldFilter[];
}

/** What a record carries and how a report date's list is sorted (SPEC §5). */
export interface RecordShape {
  /** Catalogue fields asked for with `fields=`; undefined: the default record. */
  fields?: readonly string[];
  sortBy: string;
  sortDir: 'asc' | 'desc';
}

const DEFAULT_SHAPE: RecordShape = { sortBy: 'total_assets', sortDir: 'desc' };

// biome-ignore lint/suspicious/noExplicitAny: the joined builder's table types are not spelled out here
type Joined = SelectQueryBuilder<any, any, any>;

/** `{field}__op` filters as SQL; field names come from the catalogue, values are bound. */
function withFieldFilters<Q extends Joined>(query: Q, filters: readonly FieldFilter[] = []): Q {
  let filtered = query;
  for (const filter of filters) {
    const column = sql.ref(`f.${filter.field}`);
    const condition =
      filter.op === 'isnull'
        ? filter.value
          ? sql<boolean>`${column} is null`
          : sql<boolean>`${column} is not null`
        : sql<boolean>`${column} ${sql.raw(FILTER_OPERATORS[filter.op].sql)} ${filter.value}`;
    filtered = filtered.where(condition) as Q;
  }
  return filtered;
}

function joined(db: Kysely<Database>) {
  return db.selectFrom('financials as f').innerJoin('institutions as i', 'i.cert', 'f.cert');
}

const RECORD_COLUMNS = [
  'f.cert',
  'i.name',
  'f.report_date',
  'f.total_assets',
  'f.total_deposits',
  'f.total_loans',
  'f.roa',
  'f.roe',
  'f.efficiency_ratio',
  'f.npl_ratio',
  'f.tier1_leverage',
  'i.state',
  'f.equity_ratio',
  'f.loan_to_deposit',
  'f.charge_off_rate',
] as const;

/** The latest report date on or before `date` (or the latest of all); undefined when there is none. */
export async function resolveReportDate(db: Kysely<Database>, date?: string): Promise<string | undefined> {
  let query = db.selectFrom('financials').select((eb) => eb.fn.max('report_date').as('d'));
  if (date) query = query.where('report_date', '<=', date);
  const row = await query.executeTakeFirst();
  return row?.d ?? undefined;
}

export async function hasFinancials(db: Kysely<Database>): Promise<boolean> {
  return (await db.selectFrom('financials').select('cert').limit(1).executeTakeFirst()) !== undefined;
}

function atDate(db: Kysely<Database>, filters: ListFilters) {
  let query = joined(db).where('f.report_date', '=', filters.reportDate);
  if (filters.state) query = query.where('i.state', '=', filters.state);
  return withFieldFilters(query, filters.fieldFilters);
}

export async function countAtDate(db: Kysely<Database>, filters: ListFilters): Promise<number> {
  const row = await atDate(db, filters)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * One report date, largest institutions first (unknown assets last), ties by cert. `NULLS LAST` (not
 * a CASE expression) lets SQLite read (report_date, total_assets) in index order and stop at the page.
 */
export async function listAtDate(
  db: Kysely<Database>,
  filters: ListFilters,
  page: Page,
  shape: RecordShape = DEFAULT_SHAPE,
) {
  const direction = shape.sortDir;
  const rows = await selectRecord(atDate(db, filters), shape)
    .orderBy(sql.ref(`f.${shape.sortBy}`), (ob) => (direction === 'desc' ? ob.desc() : ob.asc()).nullsLast())
    .orderBy('f.cert', 'asc')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
  return rows.map((row) => toRecord(row, shape));
}

function history(db: Kysely<Database>, filters: HistoryFilters) {
  let query = joined(db).where('f.cert', '=', filters.cert);
  if (filters.onOrBefore) query = query.where('f.report_date', '<=', filters.onOrBefore);
  return withFieldFilters(query, filters.fieldFilters);
}

/** Count and newest report date of one institution's history (within the date bound). */
export async function historySummary(db: Kysely<Database>, filters: HistoryFilters) {
  const row = await history(db, filters)
    .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.max('f.report_date').as('newest')])
    .executeTakeFirstOrThrow();
  return { total: Number(row.n), newest: row.newest ?? null };
}

/** One institution's quarterly history, newest first. */
export async function listHistory(
  db: Kysely<Database>,
  filters: HistoryFilters,
  page: Page,
  shape: RecordShape = DEFAULT_SHAPE,
) {
  const rows = await selectRecord(history(db, filters), shape)
    .orderBy('f.report_date', 'desc')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
  return rows.map((row) => toRecord(row, shape));
}

function selectRecord(query: Joined, shape: RecordShape) {
  if (!shape.fields) return query.select(RECORD_COLUMNS);
  return query.select(['f.cert', 'i.name', 'f.report_date', ...shape.fields.map((f) => `f.${f}` as const)]);
}

/** With `fields=`, the record in the order asked (serialised as is, see financials.routes.ts). */
function toRecord(row: Record<string, unknown>, shape: RecordShape) {
  if (!shape.fields) return toFinancialRecord(row as unknown as RecordRow);
  const record: Record<string, unknown> = { cert: row.cert, name: row.name, report_date: row.report_date };
  for (const field of shape.fields) record[field] = row[field] ?? null;
  return record;
}

export async function findInstitution(db: Kysely<Database>, cert: number) {
  return db.selectFrom('institutions').select(['cert', 'state']).where('cert', '=', cert).executeTakeFirst();
}

interface RecordRow {
  cert: number;
  name: string;
  report_date: string;
  total_assets: number | null;
  total_deposits: number | null;
  total_loans: number | null;
  roa: number | null;
  roe: number | null;
  efficiency_ratio: number | null;
  npl_ratio: number | null;
  tier1_leverage: number | null;
  state: string | null;
  equity_ratio: number | null;
  loan_to_deposit: number | null;
  charge_off_rate: number | null;
}

/** The financial record, seed fields first, then the extensions. */
export function toFinancialRecord(row: RecordRow) {
  return {
    cert: row.cert,
    name: row.name,
    report_date: row.report_date,
    total_assets: row.total_assets,
    total_deposits: row.total_deposits,
    total_loans: row.total_loans,
    roa: row.roa,
    roe: row.roe,
    efficiency_ratio: row.efficiency_ratio,
    npl_ratio: row.npl_ratio,
    tier1_leverage: row.tier1_leverage,
    state: row.state,
    equity_ratio: row.equity_ratio,
    loan_to_deposit: row.loan_to_deposit,
    charge_off_rate: row.charge_off_rate,
  };
}
