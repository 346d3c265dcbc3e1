/**
 * `/metrics` in the Prometheus text format (prom-client): requests and latency by route pattern
 * (never by raw URL, so label cardinality stays bounded), response-cache hits and misses, the
 * dataset version, and the Node process metrics. Each app has its own registry.
 */
import type { FastifyInstance } from 'fastify';
import { collectDefaultMetrics, Gauge, Registry } from 'prom-client';
import { Type } from 'typebox';
import type { VersionWatch } from '../db/version-watch.js';
import { RequestMeter } from './request-meter.js';

const LATENCY_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];

export interface AppMetrics {
  readonly registry: Registry;
  /** Where requests and cache lookups are counted (the cache's front door counts its own there). */
  readonly meter: RequestMeter;
  /** Reports the response cache's size in bytes (set once the cache exists). */
  cacheBytesFrom(source: () => number): void;
}

export function registerMetrics(app: FastifyInstance, watch: VersionWatch): AppMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const meter = new RequestMeter(LATENCY_BUCKETS);
  meter.register(registry);
  let cacheBytes = () => 0;
  new Gauge({
    name: 'regdata_cache_bytes',
    help: 'Bytes of response bodies held by the in-process cache',
    registers: [registry],
    collect() {
      this.set(cacheBytes());
    },
  });
  new Gauge({
    name: 'regdata_dataset_version',
    help: 'Dataset version being served (increases with every successful load)',
    registers: [registry],
    collect() {
      this.set(watch.current());
    },
  });

  app.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url ?? '(unmatched)';
    meter.slot(request.method, route).record(reply.statusCode, reply.elapsedTime / 1000);
    done();
  });

  app.get(
    '/metrics',
    {
      schema: {
        tags: ['operations'],
        summary: 'Prometheus metrics (text exposition format)',
        response: {
          200: Type.String({
            description:
              'Prometheus text format: http_requests_total, http_request_duration_seconds (seconds), regdata_cache_lookups_total, regdata_cache_bytes (bytes), regdata_dataset_version, process and Node.js metrics',
          }),
        },
      },
      config: { cache: false },
    },
    async (_request, reply) => {
      const body = await registry.metrics();
      return reply.type(registry.contentType).send(body);
    },
  );

  return {
    registry,
    meter,
    cacheBytesFrom: (source) => {
      cacheBytes = source;
    },
  };
}
