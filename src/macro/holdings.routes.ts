/**
 * `/api/macro` (seed: the holdings service's shape): a JSON array, `series` optional (default the
 * 12 of the catalogue), no default window, at most 500 observations per series. Reads through the
 * one macro module (series.ts), with the same series, metadata, 503 and `as_of` rules as /api/v1/macro.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { dateParam } from '../http/params.js';
import { problemResponses } from '../http/problem.js';
import { MACRO_SERIES_IDS } from './catalog.js';
import { parseSeriesList, recentObservations, requireLoaded, seriesErrors, seriesMeta } from './series.js';
import { asOfParam } from './v1.schemas.js';

export const MACRO_OBSERVATION_CAP = 500;

const MacroQuery = Type.Object({
  series: Type.Optional(
    Type.String({
      maxLength: 500,
      description: `Comma-separated FRED series IDs, case-insensitive: the catalogue's (default, all 12: ${MACRO_SERIES_IDS.join(', ')}) and any other series a FRED load stored`,
    }),
  ),
  start: Type.Optional(dateParam('First observation date, YYYY-MM-DD (inclusive); default: no lower bound')),
  end: Type.Optional(dateParam('Last observation date, YYYY-MM-DD (inclusive); default: no upper bound')),
  as_of: Type.Optional(asOfParam),
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
          check: (values: Record<string, unknown>, request: FastifyRequest) =>
            seriesErrors(request, values.series),
        },
      },
    },
    async (request) => {
      const { series, start, end, as_of } = request.query;
      const ids = series === undefined ? [...MACRO_SERIES_IDS] : parseSeriesList(series);
      await requireLoaded(app.db, ids, as_of);
      const metas = await seriesMeta(app.db, ids);
      const window = { start, end, asOf: as_of };
      return Promise.all(
        ids.map(async (id) => {
          const meta = metas.get(id)!;
          const observations = await recentObservations(app.db, id, window, MACRO_OBSERVATION_CAP);
          return { id, title: meta.title, units: meta.units, frequency: meta.frequency, observations };
        }),
      );
    },
  );
};
