import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { problemResponses } from '../http/problem.js';
import { countFailures, listFailures } from './failures.queries.js';
import { FailuresEnvelope, FailuresQuery, FIRST_FAILURE_YEAR } from './failures.schemas.js';

export const failuresRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/failures',
    {
      schema: {
        tags: ['banking'],
        summary: 'FDIC-insured bank failures since 1934, newest first',
        querystring: FailuresQuery,
        response: { 200: FailuresEnvelope, ...problemResponses },
      },
      config: {
        params: {
          check: ({ year }: Record<string, unknown>) => {
            const current = new Date().getUTCFullYear();
            const n = Number(year);
            return year !== undefined && (n < FIRST_FAILURE_YEAR || n > current)
              ? [
                  {
                    param: 'year',
                    message: `must be a four-digit year from ${FIRST_FAILURE_YEAR} to ${current}`,
                  },
                ]
              : [];
          },
        },
      },
    },
    async (request) => {
      const { state, year, limit, offset } = request.query;
      const filters = { state, year };
      const [total, data] = await Promise.all([
        countFailures(app.db, filters),
        listFailures(app.db, filters, { limit, offset }),
      ]);
      return { data, total, limit, offset };
    },
  );
};
