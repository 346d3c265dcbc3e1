import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Kysely, Selectable } from 'kysely';
import type { Database, MacroSeriesTable } from '../db/tables.js';
import { dataUnavailable, type ParamError, problemResponses } from '../http/problem.js';
import {
  countObservations,
  hasObservations,
  type ObservationWindow,
  recentObservations,
  seriesMetadata,
} from './macro.queries.js';
import { DEFAULT_MACRO_START, MacroEnvelope, MacroQuery } from './macro.schemas.js';
import { findMacroSeries, MACRO_SERIES_IDS } from './macro-catalog.js';

/** Splits `series`: trimmed, upper-cased, empty items dropped, duplicates removed, order kept. */
export function parseSeriesList(raw: string): string[] {
  return [...new Set(raw.split(',').map((id) => id.trim().toUpperCase()))].filter((id) => id !== '');
}

function checkMacroParams(values: Record<string, unknown>): ParamError[] {
  const errors: ParamError[] = [];
  if (typeof values.series === 'string') {
    const ids = parseSeriesList(values.series);
    const unknown = ids.filter((id) => !findMacroSeries(id));
    const valid = `valid series: ${MACRO_SERIES_IDS.join(', ')}`;
    if (ids.length === 0)
      errors.push({ param: 'series', message: `must name at least one series; ${valid}` });
    else if (unknown.length > 0)
      errors.push({ param: 'series', message: `names unknown series ${unknown.join(', ')}; ${valid}` });
  }
  const start = (values.start as string | undefined) ?? DEFAULT_MACRO_START;
  const end = values.end as string | undefined;
  if (end !== undefined && start > end) {
    const note = values.start === undefined ? ` (start defaults to ${DEFAULT_MACRO_START})` : '';
    errors.push({ param: 'start', message: `must not be after end${note}` });
  }
  return errors;
}

async function seriesResult(
  db: Kysely<Database>,
  id: string,
  stored: Selectable<MacroSeriesTable> | undefined,
  window: ObservationWindow,
  limit: number,
) {
  const definition = findMacroSeries(id)!;
  const [count, data] = await Promise.all([
    countObservations(db, id, window),
    recentObservations(db, id, window, limit),
  ]);
  const meta = {
    id,
    title: stored?.title ?? definition.title,
    units: stored?.units ?? definition.units,
    frequency: stored?.frequency ?? definition.frequency,
    seasonal_adjustment: stored?.seasonal_adjustment ?? definition.seasonalAdjustment,
    last_updated: stored?.last_updated ?? null,
    count,
    truncated: count > data.length,
  };
  return { meta, data };
}

/** Every requested series' meta and observations; 503 when any of them has nothing loaded. */
async function loadSeries(db: Kysely<Database>, ids: string[], window: ObservationWindow, limit: number) {
  const missing: string[] = [];
  for (const id of ids) if (!(await hasObservations(db, id))) missing.push(id);
  if (missing.length > 0) {
    throw dataUnavailable(
      `No observations are loaded for ${missing.join(', ')}; run \`regdata ingest fred\` (or \`regdata demo\`)`,
    );
  }
  const stored = new Map((await seriesMetadata(db, ids)).map((row) => [row.id, row]));
  const results = await Promise.all(ids.map((id) => seriesResult(db, id, stored.get(id), window, limit)));
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
          '`limit` applies per series: when the window holds more observations, the most recent `limit` are returned, in ascending date order. Missing upstream values are omitted.',
        querystring: MacroQuery,
        response: { 200: MacroEnvelope, ...problemResponses },
      },
      config: { params: { check: checkMacroParams } },
    },
    async (request) => {
      const { series, start, end, limit } = request.query;
      return { series: await loadSeries(app.db, parseSeriesList(series), { start, end }, limit) };
    },
  );
};
