/** Embeddable metric widgets, registered under `/embed`: /{cert}, /{cert}/{metric}, /{cert}/{metric}.svg. */
import type { FastifyInstance } from 'fastify';
import { embedRoutes } from './widgets.routes.js';

export async function widgetRoutes(app: FastifyInstance): Promise<void> {
  await app.register(embedRoutes);
}
