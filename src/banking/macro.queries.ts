import type { Kysely } from 'kysely';
import type { Database } from '../db/tables.js';

export interface ObservationWindow {
  start: string;
  end?: string;
}

export async function seriesMetadata(db: Kysely<Database>, ids: readonly string[]) {
  if (ids.length === 0) return [];
  return db
    .selectFrom('macro_series')
    .selectAll()
    .where('id', 'in', [...ids])
    .execute();
}

/** Whether any observation of the series is loaded at all (whatever the window). */
export async function hasObservations(db: Kysely<Database>, id: string): Promise<boolean> {
  const row = await db
    .selectFrom('macro_observations')
    .select('series_id')
    .where('series_id', '=', id)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

function inWindow(db: Kysely<Database>, id: string, window: ObservationWindow) {
  let query = db
    .selectFrom('macro_observations')
    .where('series_id', '=', id)
    .where('date', '>=', window.start);
  if (window.end) query = query.where('date', '<=', window.end);
  return query;
}

export async function countObservations(db: Kysely<Database>, id: string, window: ObservationWindow) {
  const row = await inWindow(db, id, window)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The most recent `limit` observations of the window, returned in ascending date order. */
export async function recentObservations(
  db: Kysely<Database>,
  id: string,
  window: ObservationWindow,
  limit: number,
) {
  const rows = await inWindow(db, id, window)
    .select(['date', 'value'])
    .orderBy('date', 'desc')
    .limit(limit)
    .execute();
  return rows.reverse().map(toObservation);
}

export function toObservation(row: { date: string; value: number }) {
  return { date: row.date, value: row.value };
}
