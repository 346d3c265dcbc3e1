/** The banking data service: /api/v1/… (and, registered separately, /embed/…). */
import type { FastifyInstance } from 'fastify';
import { registerMetaRoute } from '../operations/meta.js';
import { failuresRoutes } from './failures.routes.js';
import { BANKING_SOURCES } from './sources.js';

export async function bankingRoutes(app: FastifyInstance): Promise<void> {
  registerMetaRoute(app, '/api/v1/meta', 'banking', 'banking', BANKING_SOURCES);
  await app.register(failuresRoutes);
}
