/** The banking data service: /api/v1/… (and, registered separately, /embed/…). */
import type { FastifyInstance } from 'fastify';
import { registerMetaRoute } from '../operations/meta.js';
import { banksRoutes } from './banks.routes.js';
import { failuresRoutes } from './failures.routes.js';
import { financialsRoutes } from './financials.routes.js';
import { macroRoutes } from './macro.routes.js';
import { BANKING_SOURCES } from './sources.js';

export async function bankingRoutes(app: FastifyInstance): Promise<void> {
  registerMetaRoute(app, '/api/v1/meta', 'banking', 'banking', BANKING_SOURCES);
  await app.register(banksRoutes);
  await app.register(financialsRoutes);
  await app.register(macroRoutes);
  await app.register(failuresRoutes);
}
