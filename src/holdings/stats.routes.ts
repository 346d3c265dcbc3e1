import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { perVersion } from '../db/per-version.js';
import { problemResponses } from '../http/problem.js';
import { loadedQuarters } from './availability.js';
import { money } from './params.js';
import { aumTiers, countAdvisers, quarterSummary, stateDistribution } from './stats.queries.js';
import { StatsSchema } from './stats.schemas.js';

/**
 * The answer depends on the dataset only: computed once per dataset version (its aggregates over the
 * latest quarter's managers cost ~0.7 ms of SQLite).
 */
const stats = perVersion(async (db) => {
  const quarters = await loadedQuarters(db);
  const latest = quarters.at(-1) as string;
  const [summary, total_advisers, state_distribution, aum_tiers] = await Promise.all([
    quarterSummary(db, latest),
    countAdvisers(db),
    stateDistribution(db, latest),
    aumTiers(db, latest),
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
});

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
    async () => stats(app.db),
  );
};
