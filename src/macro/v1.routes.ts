/**
 * `/api/v1/macro` (seed: the banking service's shape): `series` required, a window from 2010-01-01
 * by default, `limit` per series, keyed by series ID. Reads through the one macro module (series.ts).
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../db/tables.js';
import { type ParamError, problemResponses } from '../http/problem.js';
import {
  countObservations,
  parseSeriesList,
  recentObservations,
  requireLoaded,
  seriesErrors,
  seriesMeta,
  type Window,
} from './series.js';
import { DEFAULT_MACRO_START, MacroEnvelope, MacroQuery } from './v1.schemas.js';

async function checkMacroParams(
  values: Record<string, unknown>,
  request: FastifyRequest,
): Promise<ParamError[]> {
  const errors = await seriesErrors(request, values.series);
  const start = (values.start as string | undefined) ?? DEFAULT_MACRO_START;
  const end = values.end as string | undefined;
  if (end !== undefined && start > end) {
    const note = values.start === undefined ? ` (start defaults to ${DEFAULT_MACRO_START})` : '';
    errors.push({ param: 'start', message: `must not be after end${note}` });
  }
  return errors;
}

async function loadSeries(db: Kysely<Database>, ids: string[], window: Window, limit: number) {
  await requireLoaded(db, ids, window.asOf);
  const metas = await seriesMeta(db, ids);
  const results = await Promise.all(
    ids.map(async (id) => {
      const [count, data] = await Promise.all([
        countObservations(db, id, window),
        recentObservations(db, id, window, limit),
      ]);
      return { meta: { ...metas.get(id), count, truncated: count > data.length }, data };
    }),
  );
  return Object.fromEntries(ids.map((id, i) => [id, results[i]]));
}

export const macroRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/macro',
    {
      schema: {
        tags: ['banking'],
        summary: 'FRED macro time series: the most recent observations of each series in a window',
        description:
          '`limit` applies per series: when the window holds more observations, the most recent `limit` are returned, in ascending date order. Missing upstream values are omitted. With `as_of`, the values as published that day (ALFRED vintages; 503 until `regdata ingest fred --vintages` has loaded them).',
        querystring: MacroQuery,
        response: { 200: MacroEnvelope, ...problemResponses },
      },
      config: { params: { check: checkMacroParams } },
    },
    async (request) => {
      const { series, start, end, limit, as_of } = request.query;
      return {
        series: await loadSeries(app.db, parseSeriesList(series), { start, end, asOf: as_of }, limit),
      };
    },
  );
};
