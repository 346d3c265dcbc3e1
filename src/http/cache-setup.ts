/**
 * Wires the serving layer into the app in the order the hooks must run: security headers, metrics,
 * rate limiting (first onRequest after CORS, so cached answers count), the response cache, CSV
 * (its onRoute hook must precede every route) and compression (attaches to routes added later).
 * The cache's front door answers hits before Fastify unless rate limiting is on (every request must
 * then pass the limiter, so hits take Fastify's path and its onRequest cache hook).
 */
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.js';
import type { DbHandle } from '../db/connect.js';
import { servesVersions } from '../db/per-version.js';
import { watchDatasetVersion } from '../db/version-watch.js';
import { registerResponseCache } from './cache.js';
import { registerCompression } from './cache-compress.js';
import { cacheFront } from './cache-front.js';
import { registerCsv } from './csv.js';
import type { FrontDoor } from './front-door.js';
import { registerMetrics } from './metrics.js';
import { registerRateLimit } from './rate-limit.js';
import { registerSecurityHeaders } from './security.js';

export async function registerServingLayer(
  app: FastifyInstance,
  config: Config,
  handle: DbHandle,
  front: FrontDoor,
): Promise<void> {
  const watch = await watchDatasetVersion(handle, config.versionPollMs);
  app.addHook('onClose', async () => watch.stop());
  app.decorate('datasetVersion', () => watch.current());
  servesVersions(handle.db, () => watch.current());
  registerCsv(app);
  registerSecurityHeaders(app);
  await registerRateLimit(app, config);
  const metrics = registerMetrics(app, watch);
  const store = registerResponseCache(app, config, watch, metrics.meter);
  metrics.cacheBytesFrom(() => store?.bytes() ?? 0);
  if (store && config.rateLimitMax === 0) {
    front.use(cacheFront(store, watch, metrics.meter, app.log));
    app.addHook('preClose', async () => front.use(null));
  }
  await registerCompression(app);
}
