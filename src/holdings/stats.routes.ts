import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { problemResponses } from '../http/problem.js';
import { loadedQuarters } from './availability.js';
import { money } from './params.js';
import { aumTiers, countAdvisers, quarterSummary, stateDistribution } from './stats.queries.js';
import { StatsSchema } from './stats.schemas.js';

export const statsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/stats',
    {
      schema: {
        tags: ['holdings'],
        summary:
          'Platform statistics for the latest 13F quarter: managers, positions, AUM, states, AUM tiers',
        response: { 200: StatsSchema, ...problemResponses },
      },
    },
    async () => {
      const quarters = await loadedQuarters(app.db);
      const latest = quarters.at(-1) as string;
      const [summary, total_advisers, state_distribution, aum_tiers] = await Promise.all([
        quarterSummary(app.db, latest),
        countAdvisers(app.db),
        stateDistribution(app.db, latest),
        aumTiers(app.db, latest),
      ]);
      return {
        latest_quarter: latest,
        quarters,
        total_managers: Number(summary.manager_count),
        total_holdings: Number(summary.position_count),
        total_aum: money(summary.total_value),
        total_advisers,
        state_distribution,
        aum_tiers,
      };
    },
  );
};
