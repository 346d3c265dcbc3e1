/**
 * Wires the serving layer into the app in the order the hooks must run: security headers, metrics,
 * rate limiting (first onRequest after CORS, so cached answers count), the response cache, CSV
 * (its onRoute hook must precede every route) and compression (attaches to routes added later).
 */
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.js';
import type { DbHandle } from '../db/connect.js';
import { watchDatasetVersion } from '../db/version-watch.js';
import { registerResponseCache } from './cache.js';
import { registerCompression } from './cache-compress.js';
import { registerCsv } from './csv.js';
import { registerMetrics } from './metrics.js';
import { registerRateLimit } from './rate-limit.js';
import { registerSecurityHeaders } from './security.js';

export async function registerServingLayer(
  app: FastifyInstance,
  config: Config,
  handle: DbHandle,
): Promise<void> {
  const watch = await watchDatasetVersion(handle, config.versionPollMs);
  app.addHook('onClose', async () => watch.stop());
  registerCsv(app);
  registerSecurityHeaders(app);
  await registerRateLimit(app, config);
  const metrics = registerMetrics(app, watch);
  const cache = registerResponseCache(app, config, watch, metrics);
  metrics.cacheBytesFrom(cache.bytes);
  await registerCompression(app);
}
