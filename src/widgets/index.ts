/** Embeddable metric widgets: /embed/{cert}, /embed/{cert}/{metric}, /embed/{cert}/{metric}.svg. */
import type { FastifyInstance } from 'fastify';

export async function widgetRoutes(_app: FastifyInstance): Promise<void> {}
