import { type Kysely, type Selectable, sql } from 'kysely';
import { isPostgres } from '../db/dialect.js';
import { matchesSearch } from '../db/search.js';
import type { Database, InstitutionsTable } from '../db/tables.js';
import type { Page } from '../http/paging.js';
import type { ActiveFilter, BankSortField, SortDirection } from './banks.schemas.js';

export interface BankFilters {
  q?: string;
  state?: string;
  minAssets?: number;
  maxAssets?: number;
  active: ActiveFilter;
}

export interface BankSort {
  sortBy: BankSortField;
  sortDir: SortDirection;
}

function filtered(db: Kysely<Database>, filters: BankFilters) {
  let query = db.selectFrom('institutions');
  if (filters.active !== 'all') query = query.where('active', '=', filters.active === 'true' ? 1 : 0);
  if (filters.q) query = query.where(matchesSearch('search_name', filters.q));
  if (filters.state) query = query.where('state', '=', filters.state);
  if (filters.minAssets !== undefined) query = query.where('asset_size', '>=', filters.minAssets);
  if (filters.maxAssets !== undefined) query = query.where('asset_size', '<=', filters.maxAssets);
  return query;
}

export async function hasInstitutions(db: Kysely<Database>): Promise<boolean> {
  return (await db.selectFrom('institutions').select('cert').limit(1).executeTakeFirst()) !== undefined;
}

export async function countBanks(db: Kysely<Database>, filters: BankFilters): Promise<number> {
  const row = await filtered(db, filters)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * The sort key column. Names sort by their search key (lower case, accents stripped) in byte order on
 * both databases: PostgreSQL's locale collations would otherwise order punctuation differently.
 */
function sortKey(db: Kysely<Database>, sortBy: BankSortField) {
  if (sortBy === 'asset_size') return sql.ref('asset_size');
  const column = sortBy === 'name' ? 'search_name' : 'state';
  return isPostgres(db) ? sql`${sql.ref(column)} collate "C"` : sql.ref(column);
}

/**
 * Sorted by the requested field (nulls last in both directions), ties by cert ascending. `NULLS LAST`
 * (not a CASE expression) lets SQLite walk the (active|state, active, asset_size) indexes in order
 * and stop at the page instead of sorting every matching row.
 */
export async function listBanks(db: Kysely<Database>, filters: BankFilters, sort: BankSort, page: Page) {
  const rows = await filtered(db, filters)
    .select(BANK_RECORD_COLUMNS)
    .orderBy(sortKey(db, sort.sortBy), (ob) => (sort.sortDir === 'desc' ? ob.desc() : ob.asc()).nullsLast())
    .orderBy('cert', 'asc')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
  return rows.map(toBankRecord);
}

/** What a bank record shows: the page reads only these columns, not whole rows. */
export const BANK_RECORD_COLUMNS = [
  'cert',
  'name',
  'city',
  'state',
  'charter_class',
  'asset_size',
  'established',
  'holding_company',
  'active',
] as const;

export function toBankRecord(row: Pick<Selectable<InstitutionsTable>, (typeof BANK_RECORD_COLUMNS)[number]>) {
  return {
    cert: row.cert,
    name: row.name,
    city: row.city,
    state: row.state,
    charter_class: row.charter_class,
    asset_size: row.asset_size,
    established: row.established,
    holding_company: row.holding_company,
    active: row.active === 1,
  };
}
