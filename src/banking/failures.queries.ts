import type { Kysely, Selectable } from 'kysely';
import type { Database, FailuresTable } from '../db/tables.js';
import type { Page } from '../http/paging.js';

export interface FailureFilters {
  state?: string;
  year?: string;
}

function filtered(db: Kysely<Database>, filters: FailureFilters) {
  let query = db.selectFrom('failures');
  if (filters.state) query = query.where('state', '=', filters.state);
  if (filters.year)
    query = query
      .where('closing_date', '>=', `${filters.year}-01-01`)
      .where('closing_date', '<=', `${filters.year}-12-31`);
  return query;
}

export async function countFailures(db: Kysely<Database>, filters: FailureFilters): Promise<number> {
  const row = await filtered(db, filters)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Newest closings first; ties by cert (nulls last) then id, so pages never overlap. */
export async function listFailures(db: Kysely<Database>, filters: FailureFilters, page: Page) {
  const rows = await filtered(db, filters)
    .selectAll()
    .orderBy('closing_date', 'desc')
    .orderBy((eb) => eb.case().when('cert', 'is', null).then(1).else(0).end())
    .orderBy('cert', 'asc')
    .orderBy('id', 'asc')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
  return rows.map(toFailureRecord);
}

export function toFailureRecord(row: Selectable<FailuresTable>) {
  return {
    cert: row.cert,
    name: row.name,
    state: row.state,
    closing_date: row.closing_date,
    acquiring_institution: row.acquiring_institution,
    city: row.city,
    resolution_type: row.resolution_type,
    insurance_fund: row.insurance_fund,
    total_assets: row.total_assets,
    total_deposits: row.total_deposits,
    estimated_loss: row.estimated_loss,
  };
}
