import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { notFound, problemResponses } from '../http/problem.js';
import { linksOf } from '../identity/graph.queries.js';
import { bankProfile } from './profile.queries.js';
import { ProfileParams, ProfileSchema } from './profile.schemas.js';

export const profileRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/banks/:cert/profile',
    {
      schema: {
        tags: ['banking'],
        summary:
          'A bank across domains: holding company, SEC registrant, institutional ownership, 13F filings, identity links',
        description:
          'Joins FDIC, SEC company tickers and 13F through the identity graph built at load time (docs/identity.md).',
        params: ProfileParams,
        response: { 200: ProfileSchema, ...problemResponses },
      },
    },
    async (request) => {
      const { cert } = request.params;
      const [profile, graph] = await Promise.all([
        bankProfile(app.db, cert, app.config.readIndexMaxBytes),
        linksOf(app.db, `cert:${cert}`, 1),
      ]);
      if (!profile) throw notFound(`No institution with certificate number ${cert}`);
      return { ...profile, links: graph.links };
    },
  );
};
