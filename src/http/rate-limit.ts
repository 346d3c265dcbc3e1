/**
 * Per-IP rate limiting (@fastify/rate-limit), off unless RATE_LIMIT_MAX > 0. Exceeding it answers
 * 429 with a `/problems/rate-limited` problem document, `Retry-After` (seconds) and the IETF
 * `RateLimit-Limit` / `RateLimit-Remaining` / `RateLimit-Reset` headers. It runs as the first
 * onRequest hook, so answers from the response cache count too; health probes and /metrics are
 * exempt.
 */
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.js';
import { ProblemError } from './problem.js';

const EXEMPT = new Set(['/healthz', '/readyz', '/metrics']);

export async function registerRateLimit(app: FastifyInstance, config: Config): Promise<void> {
  if (config.rateLimitMax === 0) return;
  const windowSeconds = config.rateLimitWindowSeconds;
  await app.register(rateLimit, {
    global: false,
    max: config.rateLimitMax,
    timeWindow: windowSeconds * 1000,
    enableDraftSpec: true,
    errorResponseBuilder: (_request, context) => {
      const retryAfter = String(Math.max(1, Math.ceil(context.ttl / 1000)));
      return new ProblemError(
        429,
        '/problems/rate-limited',
        'Too many requests',
        `Rate limit of ${context.max} requests per ${windowSeconds} s exceeded; retry in ${retryAfter} s`,
        undefined,
        { 'retry-after': retryAfter },
      );
    },
  });
  const limit = app.rateLimit().bind(app);
  app.addHook('onRequest', async (request, reply) => {
    if (EXEMPT.has(request.url.split('?')[0] as string)) return;
    await limit(request, reply);
  });
}
