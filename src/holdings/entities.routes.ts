import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { invalidParam, notFound, problemResponses } from '../http/problem.js';
import { canonicalValue, findEntity, linksOf, SCHEMES, type Scheme } from '../identity/graph.queries.js';
import { ResolveQuery, ResolveSchema } from '../identity/graph.schemas.js';

export const entitiesRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/entities/resolve',
    {
      schema: {
        tags: ['holdings'],
        summary:
          'Resolve any identifier (cert, RSSD, CIK, CRD, CUSIP, ticker) to its entity and the identity graph around it',
        description:
          'Links are built when data is loaded from FDIC, SEC company tickers, 13F filings, Form ADV and the 13(f) list (docs/identity.md). Two hops: a ticker leads to its registrant, the holding company registered as it, and that company’s banks.',
        querystring: ResolveQuery,
        response: { 200: ResolveSchema, ...problemResponses },
      },
    },
    async (request) => {
      const query = request.query.id;
      const at = query.indexOf(':');
      const scheme = query.slice(0, at).toLowerCase() as Scheme;
      if (at < 0 || !SCHEMES.includes(scheme))
        throw invalidParam('id', `must be scheme:value with scheme one of ${SCHEMES.join(', ')}`);
      const value = canonicalValue(scheme, query.slice(at + 1));
      if (value === null) throw invalidParam('id', `is not a well-formed ${scheme}`);
      const entity = await findEntity(app.db, scheme, value);
      if (!entity) throw notFound(`No entity with ${scheme} ${value}`);
      const { links, truncated, candidates } = await linksOf(app.db, entity.id);
      return { query, entity, links, links_truncated: truncated, candidates };
    },
  );
};
