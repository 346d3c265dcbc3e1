import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { notFound, problemResponses } from '../http/problem.js';
import { quarterComplete } from '../time/completeness.js';
import { crowded, type SmartMoneyRow, smartMoney } from './analytics.queries.js';
import { CrowdedQuery, CrowdedSchema, SmartMoneyQuery, SmartMoneySchema } from './analytics.schemas.js';
import { crowdedAsOf, latestCrowdedQuarter } from './as-of.queries.js';
import { loadedQuarters, quarterOrLatest } from './availability.js';
import { money } from './params.js';

export const analyticsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/crowded',
    {
      schema: {
        tags: ['holdings'],
        summary: 'Most widely held securities of a quarter (equity positions only)',
        querystring: CrowdedQuery,
        response: { 200: CrowdedSchema, ...problemResponses },
      },
    },
    async (request) => {
      const { limit, as_of: asOf } = request.query;
      if (asOf) {
        const quarter = request.query.quarter ?? (await latestCrowdedQuarter(app.db, asOf));
        if (!quarter) throw notFound(`No 13F holdings report had been filed by ${asOf}`);
        await quarterOrLatest(app.db, quarter);
        return { quarter, limit, data: await crowdedAsOf(app.db, quarter, asOf, limit) };
      }
      const quarter = await quarterOrLatest(app.db, request.query.quarter);
      return { quarter, limit, data: await crowded(app.db, quarter, limit) };
    },
  );

  app.get(
    '/smart-money',
    {
      schema: {
        tags: ['holdings'],
        summary: 'New entries, biggest inflows and top exits between the two most recent quarters',
        description:
          'Counts only managers with a 13F-HR in both quarters (a manager that has not filed yet is not an exit); equity positions (SH without put/call) only; values in thousands of USD.',
        querystring: SmartMoneyQuery,
        response: { 200: SmartMoneySchema, ...problemResponses },
      },
    },
    async (request) => {
      await loadedQuarters(app.db);
      const { summary, ...groups } = await smartMoney(app.db);
      if (!summary) throw notFound('Smart-money moves need at least two quarters of 13F data');
      const { limit } = request.query;
      const [entries, inflows, exits] = [groups.entries, groups.inflows, groups.exits].map((rows) =>
        rows.slice(0, limit),
      );
      const opened = (row: SmartMoneyRow) => ({
        cusip: row.cusip,
        issuer: row.issuer,
        ticker: row.ticker ?? null,
        manager_count: Number(row.manager_count),
        value: money(row.value),
      });
      return {
        quarter: summary.quarter,
        previous_quarter: summary.previous_quarter,
        quarter_complete: await quarterComplete(app.db, summary.quarter),
        managers_compared: Number(summary.managers_compared),
        limit,
        new_entries: (entries ?? []).map(opened),
        biggest_inflows: (inflows ?? []).map((row) => ({
          cusip: row.cusip,
          issuer: row.issuer,
          ticker: row.ticker ?? null,
          value_change: money(row.value_change),
          shares_change: Number(row.shares_change),
          manager_count: Number(row.manager_count),
        })),
        top_exits: (exits ?? []).map(opened),
      };
    },
  );
};
