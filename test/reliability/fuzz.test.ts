/**
 * Property-based fuzzing of every public GET route in the route catalog (so new endpoints are
 * covered automatically): hostile, random, Unicode, huge, negative, repeated and 8 KB parameters.
 * No answer may be a 5xx (except 503 data-unavailable for a dataset the demo does not hold), and
 * every 4xx must be a canonical problem document (the embed widget's HTML error pages excepted).
 * FUZZ_REQUESTS sets the total per backend (default 10,000).
 */
import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { configWith } from '../../src/config.js';
import { type DbHandle, openDatabase } from '../../src/db/connect.js';
import { seedFailures } from '../fixtures/failures.js';
import { type Backend, testBackends } from '../helpers/backends.js';
import { type ObjectSchema, requestArbitrary } from './fuzz-inputs.js';
import { problemWith } from './problem-check.js';
import { demoCopy } from './support.js';

const TOTAL = Number(process.env.FUZZ_REQUESTS ?? 10_000);
/** PostgreSQL answers each request several times slower; a quarter of the runs covers its SQL. */
const runsOn = (backend: string) => (backend === 'sqlite' ? TOTAL : Math.ceil(TOTAL / 4));

/**
 * SQLite: a copy of the small demo dataset, so valid identifiers find real records. PostgreSQL: the
 * fixtures (building the demo there takes minutes; the parameter handling under test is the same).
 */
function useFuzzApp(backend: Backend) {
  const ctx = {} as { app: FastifyInstance; reader: DbHandle; cleanup: () => Promise<void> | void };
  beforeAll(async () => {
    if (backend.name === 'sqlite') {
      const copy = await demoCopy();
      ctx.reader = openDatabase(copy.url, { readonly: true });
      ctx.cleanup = copy.cleanup;
    } else {
      const database = await backend.create();
      await seedFailures(database.writer);
      ctx.reader = database.openReader();
      ctx.cleanup = () => database.drop();
    }
    ctx.app = await buildApp(configWith({ logLevel: 'silent' }), { handle: ctx.reader });
    await ctx.app.ready();
  }, 600_000);
  afterAll(async () => {
    await ctx.app?.close();
    await ctx.reader?.close();
    await ctx.cleanup?.();
  });
  return ctx;
}

function fuzzableRoutes(app: FastifyInstance) {
  return app.routeCatalog.filter(
    (route) => route.methods.includes('GET') && !route.hidden && route.url !== '/metrics',
  );
}

describe.each(testBackends())('fuzzing every endpoint on $name', (backend) => {
  const ctx = useFuzzApp(backend);

  const total = runsOn(backend.name);

  it(`answers ${total} generated hostile requests with no 5xx and canonical problem documents`, async () => {
    const routes = fuzzableRoutes(ctx.app);
    expect(routes.length).toBeGreaterThan(3);
    const runs = Math.ceil(total / routes.length);
    const timing: Record<string, number> = {};
    let sent = 0;
    for (const route of routes) {
      const started = performance.now();
      const schema = route.schema as { querystring?: ObjectSchema; params?: ObjectSchema } | undefined;
      const requests = requestArbitrary(route.url, schema?.querystring, schema?.params);
      await fc.assert(
        fc.asyncProperty(requests, async ({ method, url }) => {
          const response = await ctx.app.inject({ method, url });
          sent++;
          const problem = problemWith(url, response);
          if (problem) throw new Error(`${method} ${url.slice(0, 300)} → ${problem.slice(0, 500)}`);
        }),
        { numRuns: runs },
      );
      timing[route.url] = Math.round(performance.now() - started);
    }
    if (process.env.FUZZ_TIMING) console.table(timing);
    expect(sent).toBeGreaterThanOrEqual(total);
  }, 300_000);
});
