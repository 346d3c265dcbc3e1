import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { JsonBuffer, sendJson } from '../http/json-buffer.js';
import { problemResponses } from '../http/problem.js';
import { loadedQuarters } from './availability.js';
import { compareManagers, overlapOf } from './comparison.js';
import { holdingsOf, latestCommonQuarter, requireManagers } from './comparison.queries.js';
import { CompareQuery, CompareSchema, OverlapQuery, OverlapSchema } from './comparison.schemas.js';
import { padCik } from './identifiers.js';
import { cikList, ciksListError } from './params.js';

async function loadHoldings(app: FastifyInstance, ciks: string[]) {
  await loadedQuarters(app.db);
  await requireManagers(app.db, ciks);
  const quarter = await latestCommonQuarter(app.db, ciks);
  return { quarter, holdings: await holdingsOf(app.db, ciks, quarter) };
}

export const comparisonRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/overlap',
    {
      schema: {
        tags: ['holdings'],
        summary: 'Portfolio overlap of 2 to 5 managers in the latest quarter all of them filed',
        querystring: OverlapQuery,
        response: { 200: OverlapSchema, ...problemResponses },
      },
      config: { params: { check: ({ ciks }: Record<string, unknown>) => ciksListError(ciks) } },
    },
    async (request, reply) => {
      const { quarter, holdings } = await loadHoldings(app, cikList(request.query.ciks));
      const { managers, shared, similarity_matrix } = overlapOf(holdings.managers, holdings.held);
      const json = new JsonBuffer(shared.count * 250).openMember({ quarter, managers }, 'shared_positions');
      shared.write(json).text(`,"similarity_matrix":${JSON.stringify(similarity_matrix)}}`);
      return sendJson(reply, json);
    },
  );

  app.get(
    '/compare',
    {
      schema: {
        tags: ['holdings'],
        summary: 'Side-by-side comparison of two managers in the latest quarter both filed',
        querystring: CompareQuery,
        response: { 200: CompareSchema, ...problemResponses },
      },
      config: {
        params: {
          check: ({ cik1, cik2 }: Record<string, unknown>) =>
            cik1 !== undefined && cik2 !== undefined && padCik(String(cik1)) === padCik(String(cik2))
              ? [{ param: 'cik2', message: 'must be a different manager from cik1' }]
              : [],
        },
      },
    },
    async (request, reply) => {
      const ciks = [padCik(request.query.cik1), padCik(request.query.cik2)];
      const { quarter, holdings } = await loadHoldings(app, ciks);
      const { head, shared } = compareManagers(holdings.managers, holdings.held);
      const json = new JsonBuffer(shared.count * 250).openMember({ quarter, ...head }, 'shared_positions');
      return sendJson(reply, shared.write(json).text('}'));
    },
  );
};
