import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { wantsCsv } from '../http/csv.js';
import { JsonBuffer, sendJson } from '../http/json-buffer.js';
import { notFound, problemResponses } from '../http/problem.js';
import { loadedQuarters, quarterOrLatest } from './availability.js';
import { holderSummaries } from './holder-summaries.js';
import {
  holderChanges,
  holderSummary,
  searchSecurities,
  security,
  securityHistory,
} from './securities.queries.js';
import {
  HoldersEnvelope,
  HoldersQuery,
  SecurityHistorySchema,
  SecurityParams,
  SecuritySearchEnvelope,
  SecuritySearchQuery,
} from './securities.schemas.js';
import { securityHolders } from './security-holders.js';
import { securitySearchIndex } from './security-search.js';

export const securitiesRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const knownSecurity = async (cusip: string) => {
    const found = await security(app.db, cusip);
    if (!found)
      throw notFound(`Unknown CUSIP ${cusip}: not in the security master nor in any 13F filing loaded`);
    return found;
  };

  app.get(
    '/securities',
    {
      schema: {
        tags: ['holdings'],
        summary: 'Find a security by issuer name, ticker or CUSIP',
        description:
          'Securities held as equity (SH without put/call) in at least one loaded quarter, with their latest such quarter’s holders and value (thousands of USD). With `q`, a security whose ticker equals `q` comes first (`q=aapl` finds Apple), then issuer-name matches by value.',
        querystring: SecuritySearchQuery,
        response: { 200: SecuritySearchEnvelope, ...problemResponses },
      },
    },
    async (request) => {
      await loadedQuarters(app.db);
      const { q, ticker, cusip, limit, offset } = request.query;
      const index = await securitySearchIndex(app.db, app.config.readIndexMaxBytes);
      const found = index
        ? index.search({ q, ticker, cusip }, { limit, offset })
        : await searchSecurities(app.db, { q, ticker, cusip }, { limit, offset });
      return { ...found, limit, offset };
    },
  );

  app.get(
    '/securities/:cusip',
    {
      schema: {
        tags: ['holdings'],
        summary: 'A security’s 13F history: holders, shares, value, new and exited holders, splits',
        params: SecurityParams,
        response: { 200: SecurityHistorySchema, ...problemResponses },
      },
    },
    async (request) => {
      const quarters = await loadedQuarters(app.db);
      const identity = await knownSecurity(request.params.cusip);
      return { ...identity, history: await securityHistory(app.db, identity.cusip, quarters) };
    },
  );

  app.get(
    '/securities/:cusip/holders',
    {
      schema: {
        tags: ['holdings'],
        summary: 'Who holds a security, and who bought and sold it, in one quarter',
        description:
          'Every manager with an equity position in the quarter, and every manager that held it in its previous filed quarter and filed this one without it (`sold_out`, shares 0), each with its change against its previous filed quarter (split-adjusted). 404 when nobody held or sold it that quarter.',
        params: SecurityParams,
        querystring: HoldersQuery,
        response: { 200: HoldersEnvelope, ...problemResponses },
      },
    },
    async (request, reply) => {
      const quarter = await quarterOrLatest(app.db, request.query.quarter);
      const identity = await knownSecurity(request.params.cusip);
      const { status, limit, offset } = request.query;
      const summaries = await holderSummaries(app.db, quarter, app.config.readIndexMaxBytes);
      const found = summaries
        ? summaries.get(identity.cusip)
        : await holderSummary(app.db, quarter, identity.cusip);
      if (!found) throw notFound(`No manager held or sold CUSIP ${identity.cusip} in ${quarter}`);
      const { split_factor, summary } = found;
      const total = status
        ? summary[status]
        : summary.new + summary.added + summary.reduced + summary.unchanged + summary.sold_out;
      // Member by member in the schema's order: the index path below writes it with JSON.stringify,
      // not the schema's serialiser, so nothing else may ride along.
      const { cusip, issuer, title_of_class, ticker } = identity;
      const { new: opened, added, reduced, unchanged, sold_out } = summary;
      // biome-ignore format: the answer's head
      const head = { cusip, issuer, title_of_class, ticker, quarter, split_factor,
        summary: { new: opened, added, reduced, unchanged, sold_out } };
      const page = { limit, offset };
      const index = wantsCsv(request)
        ? null
        : await securityHolders(app.db, quarter, identity.cusip, app.config.readIndexMaxBytes);
      if (!index) {
        const data = await holderChanges(app.db, quarter, identity.cusip, status, page);
        return { ...head, data, total, limit, offset };
      }
      // The records as the index keeps them, written into the answer (security-holders.ts).
      const json = new JsonBuffer(Math.min(limit, total) * 200 + 1024).openMember(head, 'data');
      index.writePage(json, status, page);
      return sendJson(reply, json.text(`,"total":${total},"limit":${limit},"offset":${offset}}`));
    },
  );
};
