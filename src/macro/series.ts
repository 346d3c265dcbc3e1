/**
 * The one macro module's reads (SPEC §8): which series are served (the 12 of the catalogue and any
 * other series a FRED load stored), their metadata, the most recent observations of a window, and
 * the observations as published on a day (`as_of`, from ALFRED vintages). /api/v1/macro and
 * /api/macro differ only in their seed-given shapes and defaults (v1.routes.ts, holdings.routes.ts).
 */
import type { FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../db/tables.js';
import { dataUnavailable, type ParamError } from '../http/problem.js';
import { findMacroSeries, MACRO_SERIES_IDS } from './catalog.js';

export interface Window {
  start?: string | undefined;
  end?: string | undefined;
  /** YYYY-MM-DD: the values as published that day (ALFRED vintages) instead of the latest. */
  asOf?: string | undefined;
}

/** Splits `series`: trimmed, upper-cased, empty items dropped, duplicates removed, order kept. */
export function parseSeriesList(raw: string): string[] {
  return [...new Set(raw.split(',').map((id) => id.trim().toUpperCase()))].filter((id) => id !== '');
}

/** The catalogue's series, then every other series loaded, in ID order. */
export async function servedSeries(db: Kysely<Database>): Promise<string[]> {
  const loaded = await db.selectFrom('macro_series').select('id').orderBy('id').execute();
  return [...MACRO_SERIES_IDS, ...loaded.map((row) => row.id).filter((id) => !findMacroSeries(id))];
}

/** The `series` parameter's errors: empty, or naming series neither catalogued nor loaded. */
export async function seriesErrors(request: FastifyRequest, raw: unknown): Promise<ParamError[]> {
  if (typeof raw !== 'string') return [];
  const ids = parseSeriesList(raw);
  const served = await servedSeries(request.server.db);
  const valid = `valid series: ${served.join(', ')}`;
  if (ids.length === 0) return [{ param: 'series', message: `must name at least one series; ${valid}` }];
  const unknown = ids.filter((id) => !served.includes(id));
  return unknown.length > 0
    ? [{ param: 'series', message: `names unknown series ${unknown.join(', ')}; ${valid}` }]
    : [];
}

export interface SeriesMeta {
  id: string;
  title: string;
  units: string | null;
  frequency: string;
  seasonal_adjustment: string | null;
  last_updated: string | null;
}

/** Stored metadata first (FRED's), the catalogue's for what a load did not give. */
export async function seriesMeta(
  db: Kysely<Database>,
  ids: readonly string[],
): Promise<Map<string, SeriesMeta>> {
  const stored = new Map(
    (ids.length === 0
      ? []
      : await db
          .selectFrom('macro_series')
          .selectAll()
          .where('id', 'in', [...ids])
          .execute()
    ).map((row) => [row.id, row]),
  );
  return new Map(
    ids.map((id) => {
      const row = stored.get(id);
      const known = findMacroSeries(id);
      return [
        id,
        {
          id,
          title: row?.title ?? known?.title ?? id,
          units: row?.units ?? known?.units ?? null,
          frequency: row?.frequency ?? known?.frequency ?? 'Unknown',
          seasonal_adjustment: row?.seasonal_adjustment ?? known?.seasonalAdjustment ?? null,
          last_updated: row?.last_updated ?? null,
        },
      ];
    }),
  );
}

/** 503 naming every requested series with nothing to serve (no observations, or no vintages for as_of). */
export async function requireLoaded(
  db: Kysely<Database>,
  ids: readonly string[],
  asOf?: string,
): Promise<void> {
  const table = asOf ? 'macro_vintages' : 'macro_observations';
  const missing: string[] = [];
  for (const id of ids) {
    const row = await db
      .selectFrom(table)
      .select('series_id')
      .where('series_id', '=', id)
      .limit(1)
      .executeTakeFirst();
    if (!row) missing.push(id);
  }
  if (missing.length === 0) return;
  throw dataUnavailable(
    asOf
      ? `No vintages are loaded for ${missing.join(', ')}, so as_of cannot be answered; run \`regdata ingest fred --vintages\` (needs FRED_API_KEY)`
      : `No observations are loaded for ${missing.join(', ')}; run \`regdata ingest fred\` (or \`regdata demo\`)`,
  );
}

/** The row whose real-time period contains the day; a null value was not published then. */
function vintagesIn(db: Kysely<Database>, id: string, window: Window & { asOf: string }) {
  let query = db
    .selectFrom('macro_vintages')
    .where('series_id', '=', id)
    .where('realtime_start', '<=', window.asOf)
    .where('realtime_end', '>=', window.asOf)
    .where('value', 'is not', null);
  if (window.start) query = query.where('date', '>=', window.start);
  if (window.end) query = query.where('date', '<=', window.end);
  return query;
}

function latestIn(db: Kysely<Database>, id: string, window: Window) {
  let query = db.selectFrom('macro_observations').where('series_id', '=', id);
  if (window.start) query = query.where('date', '>=', window.start);
  if (window.end) query = query.where('date', '<=', window.end);
  return query;
}

/** Both tables have the `series_id`, `date` and `value` the reads below use. */
type Observations = ReturnType<typeof latestIn>;

export async function countObservations(db: Kysely<Database>, id: string, window: Window): Promise<number> {
  const { asOf } = window;
  const query = asOf ? vintagesIn(db, id, { ...window, asOf }) : latestIn(db, id, window);
  const row = await (query as Observations)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The most recent `limit` observations of the window, in ascending date order. */
export async function recentObservations(db: Kysely<Database>, id: string, window: Window, limit: number) {
  const { asOf } = window;
  const query = asOf ? vintagesIn(db, id, { ...window, asOf }) : latestIn(db, id, window);
  const rows = await (query as Observations)
    .select(['date', 'value'])
    .orderBy('date', 'desc')
    .limit(limit)
    .execute();
  return rows.reverse().map((row) => ({ date: row.date, value: Number(row.value) }));
}
