import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { notFound, problemResponses } from '../http/problem.js';
import { countAdvisersMatching, findAdviser, listAdvisers } from './advisers.queries.js';
import { AdviserDetail, AdviserParams, AdvisersEnvelope, AdvisersQuery } from './advisers.schemas.js';
import { requireAdvisers } from './availability.js';

export const adviserRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/advisers',
    {
      schema: {
        tags: ['holdings'],
        summary: 'Search SEC-registered investment advisers (Form ADV); AUM in USD',
        querystring: AdvisersQuery,
        response: { 200: AdvisersEnvelope, ...problemResponses },
      },
      config: { params: { ranges: [['aum_min', 'aum_max']] } },
    },
    async (request) => {
      const { q, state, aum_min, aum_max, sort, order, limit, offset } = request.query;
      await requireAdvisers(app.db);
      const filters = { q, state, aum_min, aum_max };
      const [total, data] = await Promise.all([
        countAdvisersMatching(app.db, filters),
        listAdvisers(app.db, filters, { sort, order }, { limit, offset }),
      ]);
      return { data, total, limit, offset };
    },
  );

  app.get(
    '/advisers/:crd',
    {
      schema: {
        tags: ['holdings'],
        summary: 'One adviser’s full Form ADV record (address, phone, client breakdown, private funds)',
        params: AdviserParams,
        response: { 200: AdviserDetail, ...problemResponses },
      },
    },
    async (request) => {
      await requireAdvisers(app.db);
      const adviser = await findAdviser(app.db, Number(request.params.crd));
      if (!adviser) throw notFound(`No adviser with CRD ${Number(request.params.crd)}`);
      return adviser;
    },
  );
};
