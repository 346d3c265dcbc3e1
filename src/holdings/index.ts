/** The institutional holdings service: /api/… (no version segment). */
import type { FastifyInstance } from 'fastify';
import { registerMetaRoute } from '../operations/meta.js';
import { HOLDINGS_SOURCES } from './sources.js';

export async function holdingsRoutes(app: FastifyInstance): Promise<void> {
  registerMetaRoute(app, '/api/meta', 'holdings', 'holdings', HOLDINGS_SOURCES);
}
