/** The institutional holdings service, registered under `/api` (no version segment). */
import type { FastifyInstance } from 'fastify';
import { macroRoutes } from '../macro/holdings.routes.js';
import { registerMetaRoute } from '../operations/meta.js';
import { loadChangesRoutes } from '../time/changes.routes.js';
import { freshnessRoutes } from '../time/freshness.routes.js';
import { adviserRoutes } from './advisers.routes.js';
import { analyticsRoutes } from './analytics.routes.js';
import { changesRoutes } from './changes.routes.js';
import { comparisonRoutes } from './comparison.routes.js';
import { entitiesRoutes } from './entities.routes.js';
import { portfolioRoutes } from './portfolios.routes.js';
import { progressRoutes } from './progress.routes.js';
import { securitiesRoutes } from './securities.routes.js';
import { HOLDINGS_SOURCES } from './sources.js';
import { statsRoutes } from './stats.routes.js';

export async function holdingsRoutes(app: FastifyInstance): Promise<void> {
  registerMetaRoute(app, '/meta', 'holdings', 'holdings', HOLDINGS_SOURCES);
  await app.register(statsRoutes);
  await app.register(adviserRoutes);
  await app.register(portfolioRoutes);
  await app.register(changesRoutes);
  await app.register(securitiesRoutes);
  await app.register(progressRoutes);
  await app.register(analyticsRoutes);
  await app.register(comparisonRoutes);
  await app.register(entitiesRoutes);
  await app.register(loadChangesRoutes, { tag: 'holdings' });
  await app.register(freshnessRoutes, { tag: 'holdings' });
  await app.register(macroRoutes);
}
