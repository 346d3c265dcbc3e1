import type { Kysely, Selectable } from 'kysely';
import { containsPattern } from '../db/search.js';
import type { Database } from '../db/tables.js';
import type { Page } from '../http/paging.js';
import { linked } from '../identity/graph.queries.js';
import type { AdvisersTable } from './tables.js';

export interface AdviserFilters {
  q?: string;
  state?: string;
  aum_min?: number;
  aum_max?: number;
}

export interface AdviserSort {
  sort: 'aum' | 'name' | 'employees';
  order: 'asc' | 'desc';
}

function filtered(db: Kysely<Database>, filters: AdviserFilters) {
  let query = db.selectFrom('advisers');
  if (filters.q) {
    const pattern = containsPattern(filters.q);
    query = query.where((eb) =>
      eb.or([eb('search_name', 'like', pattern), eb('search_legal_name', 'like', pattern)]),
    );
  }
  if (filters.state) query = query.where('state', '=', filters.state);
  if (filters.aum_min !== undefined) query = query.where('aum', '>=', filters.aum_min);
  if (filters.aum_max !== undefined) query = query.where('aum', '<=', filters.aum_max);
  return query;
}

export async function countAdvisersMatching(db: Kysely<Database>, filters: AdviserFilters) {
  const row = await filtered(db, filters)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

const SORT_COLUMN = { aum: 'aum', name: 'search_name', employees: 'employees' } as const;

/** Nulls last whatever the direction (NULLS LAST: SQLite ≥ 3.30 and PostgreSQL), then crd ascending. */
export async function listAdvisers(
  db: Kysely<Database>,
  filters: AdviserFilters,
  sort: AdviserSort,
  page: Page,
) {
  const column = SORT_COLUMN[sort.sort];
  const rows = await filtered(db, filters)
    .select(ADVISER_RECORD_COLUMNS)
    .orderBy(column, (ob) => (sort.order === 'desc' ? ob.desc() : ob.asc()).nullsLast())
    .orderBy('crd', 'asc')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
  return rows.map(toAdviserRecord);
}

export async function findAdviser(db: Kysely<Database>, crd: number) {
  const row = await db.selectFrom('advisers').selectAll().where('crd', '=', crd).executeTakeFirst();
  if (!row) return undefined;
  // No CRD or file number on a 13F cover page: the filer linked by name, city and state, if any.
  const named = row.cik === null ? (await linked(db, `crd:${crd}`, 'same_firm_as'))[0] : undefined;
  return toAdviserDetail(named ? { ...row, cik: named.to_id.slice('cik:'.length) } : row);
}

const int = (value: number | null) => (value === null ? null : Number(value));

/** What a list record shows: the page reads only these columns, not the whole Form ADV row. */
const ADVISER_RECORD_COLUMNS = [
  'crd',
  'sec_number',
  'cik',
  'name',
  'legal_name',
  'city',
  'state',
  'country',
  'aum',
  'discretionary_aum',
  'employees',
  'clients',
  'website',
  'registration_status',
  'latest_filing_date',
] as const;

export function toAdviserRecord(
  row: Pick<Selectable<AdvisersTable>, (typeof ADVISER_RECORD_COLUMNS)[number]>,
) {
  return {
    crd: Number(row.crd),
    sec_number: row.sec_number,
    cik: row.cik,
    name: row.name,
    legal_name: row.legal_name,
    city: row.city,
    state: row.state,
    country: row.country,
    aum: row.aum,
    discretionary_aum: row.discretionary_aum,
    employees: int(row.employees),
    clients: int(row.clients),
    website: row.website,
    registration_status: row.registration_status,
    latest_filing_date: row.latest_filing_date,
  };
}

export function toAdviserDetail(row: Selectable<AdvisersTable>) {
  return {
    ...toAdviserRecord(row),
    address: row.address,
    phone: row.phone,
    client_breakdown: {
      individuals: int(row.clients_individuals),
      high_net_worth: int(row.clients_high_net_worth),
      investment_companies: int(row.clients_investment_companies),
      pooled_vehicles: int(row.clients_pooled_vehicles),
      pension_plans: int(row.clients_pension_plans),
      other: int(row.clients_other),
    },
    private_funds: {
      total: int(row.private_funds),
      hedge_funds: int(row.hedge_funds),
      private_equity_funds: int(row.private_equity_funds),
    },
  };
}
