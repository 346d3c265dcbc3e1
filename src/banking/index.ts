/** The banking data service, registered under `/api/v1` (its widgets separately, under `/embed`). */
import type { FastifyInstance } from 'fastify';
import { macroRoutes } from '../macro/v1.routes.js';
import { registerMetaRoute } from '../operations/meta.js';
import { loadChangesRoutes } from '../time/changes.routes.js';
import { freshnessRoutes } from '../time/freshness.routes.js';
import { aggregatesRoutes } from './aggregates.routes.js';
import { banksRoutes } from './banks.routes.js';
import { failuresRoutes } from './failures.routes.js';
import { fieldsRoutes } from './fields.routes.js';
import { financialsRoutes } from './financials.routes.js';
import { peersRoutes } from './peers.routes.js';
import { profileRoutes } from './profile.routes.js';
import { revisionsRoutes } from './revisions.routes.js';
import { BANKING_SOURCES } from './sources.js';

export async function bankingRoutes(app: FastifyInstance): Promise<void> {
  registerMetaRoute(app, '/meta', 'banking', 'banking', BANKING_SOURCES);
  await app.register(banksRoutes);
  await app.register(profileRoutes);
  await app.register(financialsRoutes);
  await app.register(revisionsRoutes);
  await app.register(fieldsRoutes);
  await app.register(peersRoutes);
  await app.register(aggregatesRoutes);
  await app.register(macroRoutes);
  await app.register(failuresRoutes);
  await app.register(loadChangesRoutes, { tag: 'banking' });
  await app.register(freshnessRoutes, { tag: 'banking' });
}
