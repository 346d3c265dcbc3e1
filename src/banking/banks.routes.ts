import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { pageWithTotal } from '../http/paging.js';
import { dataUnavailable, problemResponses } from '../http/problem.js';
import { countBanks, hasInstitutions, listBanks } from './banks.queries.js';
import { BanksEnvelope, BanksQuery } from './banks.schemas.js';

export const banksRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/banks',
    {
      schema: {
        tags: ['banking'],
        summary: 'Search FDIC-insured institutions (active ones by default), largest first',
        querystring: BanksQuery,
        response: { 200: BanksEnvelope, ...problemResponses },
      },
      config: { params: { ranges: [['minAssets', 'maxAssets']] } },
    },
    async (request) => {
      const { q, state, minAssets, maxAssets, active, sortBy, sortDir, limit, offset } = request.query;
      const filters = { q, state, minAssets, maxAssets, active };
      const page = { limit, offset };
      const { data, total } = await pageWithTotal(
        page,
        () => listBanks(app.db, filters, { sortBy, sortDir }, page),
        () => countBanks(app.db, filters),
      );
      if (total === 0 && !(await hasInstitutions(app.db))) {
        throw dataUnavailable(
          'No institutions are loaded; run `regdata ingest fdic-institutions` (or `regdata demo`)',
        );
      }
      return { data, total, limit, offset };
    },
  );
};
