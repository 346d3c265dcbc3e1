/**
 * `/api/macro`: the FRED series of the shared catalogue (src/banking/macro-catalog.ts) in the
 * holdings API's shape — a JSON array, each series with at most its 500 most recent observations
 * in the window, ascending.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Kysely } from 'kysely';
import { Type } from 'typebox';
import { findMacroSeries, MACRO_SERIES_IDS } from '../banking/macro-catalog.js';
import type { Database } from '../db/tables.js';
import { dateParam } from '../http/params.js';
import { dataUnavailable, type ParamError, problemResponses } from '../http/problem.js';

export const MACRO_OBSERVATION_CAP = 500;

const MacroQuery = Type.Object({
  series: Type.Optional(
    Type.String({
      maxLength: 500,
      description: `Comma-separated FRED series IDs, case-insensitive; default all 12: ${MACRO_SERIES_IDS.join(', ')}`,
    }),
  ),
  start: Type.Optional(dateParam('First observation date, YYYY-MM-DD (inclusive); default: no lower bound')),
  end: Type.Optional(dateParam('Last observation date, YYYY-MM-DD (inclusive); default: no upper bound')),
});

const MacroSchema = Type.Array(
  Type.Object({
    id: Type.String({ description: 'FRED series ID' }),
    title: Type.String({ description: 'Series title' }),
    units: Type.Union([Type.String(), Type.Null()], { description: 'FRED units label (e.g. `Percent`)' }),
    frequency: Type.String({ description: 'Daily, Weekly, Monthly or Quarterly' }),
    observations: Type.Array(
      Type.Object({
        date: Type.String({ description: 'Observation date, YYYY-MM-DD' }),
        value: Type.Number({ description: 'Observation value, in the series units' }),
      }),
      {
        description: `At most the ${MACRO_OBSERVATION_CAP} most recent observations in the window, ascending`,
      },
    ),
  }),
  { description: 'One entry per requested series, in the order requested' },
);

export function parseSeriesList(raw: string | undefined): { ids: string[]; unknown: string[] } {
  if (raw === undefined) return { ids: [...MACRO_SERIES_IDS], unknown: [] };
  const parts = [
    ...new Set(
      raw
        .split(',')
        .map((part) => part.trim().toUpperCase())
        .filter(Boolean),
    ),
  ];
  return {
    ids: parts.filter((id) => findMacroSeries(id)),
    unknown: parts.filter((id) => !findMacroSeries(id)),
  };
}

function seriesErrors(series: unknown): ParamError[] {
  if (series === undefined) return [];
  const { ids, unknown } = parseSeriesList(String(series));
  if (unknown.length > 0)
    return [
      {
        param: 'series',
        message: `unknown series ${unknown.join(', ')}; valid IDs: ${MACRO_SERIES_IDS.join(', ')}`,
      },
    ];
  return ids.length === 0 ? [{ param: 'series', message: 'must name at least one series' }] : [];
}

async function hasObservations(db: Kysely<Database>, id: string): Promise<boolean> {
  const row = await db
    .selectFrom('macro_observations')
    .select('date')
    .where('series_id', '=', id)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

type SeriesMeta = { title: string; units: string | null; frequency: string } | undefined;

/** The most recent observations in the window (one indexed query); 503 when none are loaded at all. */
async function loadSeries(db: Kysely<Database>, id: string, meta: SeriesMeta, start?: string, end?: string) {
  let query = db.selectFrom('macro_observations').select(['date', 'value']).where('series_id', '=', id);
  if (start) query = query.where('date', '>=', start);
  if (end) query = query.where('date', '<=', end);
  const recent = await query.orderBy('date', 'desc').limit(MACRO_OBSERVATION_CAP).execute();
  if (recent.length === 0 && !(await hasObservations(db, id))) {
    throw dataUnavailable(
      `No observations of ${id} are loaded: run \`regdata ingest fred\` (or \`regdata demo\`)`,
    );
  }
  const catalog = findMacroSeries(id);
  return {
    id,
    title: meta?.title ?? catalog?.title ?? id,
    units: meta?.units ?? catalog?.units ?? null,
    frequency: meta?.frequency ?? catalog?.frequency ?? 'Unknown',
    observations: recent.reverse().map((row) => ({ date: row.date, value: Number(row.value) })),
  };
}

export const macroRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/macro',
    {
      schema: {
        tags: ['holdings'],
        summary: 'FRED macro series with metadata and up to 500 most recent observations each',
        querystring: MacroQuery,
        response: { 200: MacroSchema, ...problemResponses },
      },
      config: {
        params: {
          ranges: [['start', 'end']],
          check: ({ series }: Record<string, unknown>) => seriesErrors(series),
        },
      },
    },
    async (request) => {
      const { series, start, end } = request.query;
      const { ids } = parseSeriesList(series);
      const metas = await app.db.selectFrom('macro_series').selectAll().where('id', 'in', ids).execute();
      const byId = new Map(metas.map((meta) => [meta.id, meta]));
      return Promise.all(ids.map((id) => loadSeries(app.db, id, byId.get(id), start, end)));
    },
  );
};
