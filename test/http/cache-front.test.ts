/**
 * The response cache's front door (src/http/cache-front.ts) over real HTTP — `app.inject` bypasses
 * it. A hit it answers must be indistinguishable from Fastify's answer of the same representation
 * (every header but X-Request-Id and Date), 304s included, and still be counted, invalidated by a
 * load, and kept out of the way of rate limiting and HEAD.
 */
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { type Config, configWith } from '../../src/config.js';
import type { DbHandle } from '../../src/db/connect.js';
import { bumpDatasetVersion } from '../../src/db/dataset.js';
import { WIDGET_CSP } from '../../src/widgets/widgets.routes.js';
import { FAILURES, seedFailures } from '../fixtures/failures.js';
import { type Backend, type TestDatabase, testBackends } from '../helpers/backends.js';
import { HARBOR, seedWidgets } from './embed.fixture.js';

const URL = '/api/v1/failures?limit=100';

interface Served {
  app: FastifyInstance;
  database: TestDatabase;
  origin: string;
  /** Requests Fastify answered itself (its onResponse hooks ran). */
  fastifyAnswers: number;
}

/** The app listening on a free port, counting the requests that reach Fastify. */
function useServedApp(backend: Backend, overrides: Partial<Config> = {}): Served {
  const ctx = { fastifyAnswers: 0 } as Served;
  let reader: DbHandle | undefined;
  beforeAll(async () => {
    ctx.database = await backend.create();
    await seedFailures(ctx.database.writer);
    await seedWidgets(ctx.database.writer);
    reader = ctx.database.openReader();
    ctx.app = await buildApp(configWith({ logLevel: 'silent', versionPollMs: 50, ...overrides }), {
      handle: reader,
    });
    ctx.app.addHook('onResponse', (_request, _reply, done) => {
      ctx.fastifyAnswers++;
      done();
    });
    await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    ctx.origin = `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await ctx.app?.close();
    await reader?.close();
    await ctx.database?.drop();
  });
  return ctx;
}

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

function get(origin: string, path: string, headers: Record<string, string> = {}, method = 'GET') {
  return new Promise<Answer>((done, fail) => {
    const req = httpRequest(`${origin}${path}`, { method, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        done({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
      );
      res.on('error', fail);
    });
    req.on('error', fail);
    req.end();
  });
}

/** Every header but the per-request and per-connection ones. */
function representation(headers: Record<string, unknown>) {
  const { 'x-request-id': _id, date: _date, connection: _c, 'keep-alive': _k, ...rest } = headers;
  return rest;
}

/** GETs until the front door answers (Fastify's first answer fills the cache and its headers). */
async function viaFrontDoor(ctx: Served, path: string, headers: Record<string, string> = {}) {
  const first = await get(ctx.origin, path, headers);
  const before = ctx.fastifyAnswers;
  const hit = await get(ctx.origin, path, headers);
  expect(ctx.fastifyAnswers, 'answered by the front door, not Fastify').toBe(before);
  return { first, hit };
}

async function metric(ctx: Served, prefix: string): Promise<number> {
  const { body } = await get(ctx.origin, '/metrics');
  const line = body
    .toString()
    .split('\n')
    .find((l) => l.startsWith(prefix));
  return Number(line?.slice(line.lastIndexOf(' ') + 1) ?? 0);
}

describe.each(testBackends())('the cache front door on $name', (backend) => {
  const ctx = useServedApp(backend);

  it('answers a hit with exactly the headers and body Fastify sent', async () => {
    const { first, hit } = await viaFrontDoor(ctx, URL);
    expect(hit.status).toBe(200);
    expect(hit.body.equals(first.body)).toBe(true);
    expect(representation(hit.headers)).toEqual(representation(first.headers));
    expect(hit.headers['x-frame-options']).toBe('DENY');
    expect(hit.headers['access-control-allow-origin']).toBe('*');
    expect(hit.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(hit.headers['x-request-id']).not.toBe(first.headers['x-request-id']);
  });

  it('serves gzip and brotli variants with their own ETags, and identity to others', async () => {
    const plain = await get(ctx.origin, URL);
    for (const [coding, decode] of [
      ['gzip', gunzipSync],
      ['br', brotliDecompressSync],
    ] as const) {
      const { first, hit } = await viaFrontDoor(ctx, URL, { 'accept-encoding': coding });
      expect(representation(hit.headers)).toEqual(representation(first.headers));
      expect(hit.headers['content-encoding']).toBe(coding);
      expect(hit.headers.etag).toMatch(new RegExp(`-${coding}"$`));
      expect(decode(hit.body).equals(plain.body)).toBe(true);
    }
    const identity = await get(ctx.origin, URL, { 'accept-encoding': 'identity' });
    expect(identity.headers['content-encoding']).toBeUndefined();
    expect(identity.body.equals(plain.body)).toBe(true);
  });

  it('answers 304 to a matching If-None-Match (weak comparison, any coding) like Fastify does', async () => {
    const path = '/api/v1/failures?limit=7';
    const { hit } = await viaFrontDoor(ctx, path);
    const etag = String(hit.headers.etag);
    const fastify304 = await ctx.app.inject({ method: 'GET', url: path, headers: { 'if-none-match': etag } });
    const before = ctx.fastifyAnswers;
    for (const tag of [etag, `W/${etag}`, `"0-nope", ${etag.replace(/"$/, '-gzip"')}`]) {
      const revalidated = await get(ctx.origin, path, { 'if-none-match': tag });
      expect(revalidated.status).toBe(304);
      expect(revalidated.body.length).toBe(0);
      expect(representation(revalidated.headers)).toMatchObject(representation(fastify304.headers));
      expect(revalidated.headers['content-type']).toBeUndefined();
    }
    expect((await get(ctx.origin, path, { 'if-none-match': '"0-nope"' })).status).toBe(200);
    expect(ctx.fastifyAnswers).toBe(before);
  });

  it('keeps the embed widgets’ own CSP and framing rules', async () => {
    const { first, hit } = await viaFrontDoor(ctx, `/embed/${HARBOR}/roa`);
    expect(hit.status).toBe(200);
    expect(representation(hit.headers)).toEqual(representation(first.headers));
    expect(hit.headers['content-security-policy']).toBe(WIDGET_CSP);
    expect(hit.headers['x-frame-options']).toBeUndefined();
  });

  it('echoes a sane X-Request-Id and replaces an insane one', async () => {
    await get(ctx.origin, URL);
    const sane = await get(ctx.origin, URL, { 'x-request-id': 'abc-123' });
    expect(sane.headers['x-request-id']).toBe('abc-123');
    const insane = await get(ctx.origin, URL, { 'x-request-id': '<script>' });
    expect(insane.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('counts its answers by route and status, and as cache hits', async () => {
    const path = '/api/v1/failures?state=TX';
    const route = 'method="GET",route="/api/v1/failures"';
    await get(ctx.origin, path);
    const [ok, notModified, hits, observed] = await Promise.all([
      metric(ctx, `http_requests_total{${route},status="200"}`),
      metric(ctx, `http_requests_total{${route},status="304"}`),
      metric(ctx, 'regdata_cache_lookups_total{result="hit"}'),
      metric(ctx, `http_request_duration_seconds_count{${route}}`),
    ]);
    const { hit } = await viaFrontDoor(ctx, path);
    await get(ctx.origin, path, { 'if-none-match': String(hit.headers.etag) });
    expect(await metric(ctx, `http_requests_total{${route},status="200"}`)).toBe(ok + 2);
    expect(await metric(ctx, `http_requests_total{${route},status="304"}`)).toBe(notModified + 1);
    expect(await metric(ctx, 'regdata_cache_lookups_total{result="hit"}')).toBe(hits + 3);
    expect(await metric(ctx, `http_request_duration_seconds_count{${route}}`)).toBe(observed + 3);
  });

  it('leaves HEAD to Fastify', async () => {
    await viaFrontDoor(ctx, URL);
    const before = ctx.fastifyAnswers;
    const head = await get(ctx.origin, URL, {}, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    expect(head.headers.etag).toBeDefined();
    expect(ctx.fastifyAnswers).toBe(before + 1);
  });

  it('serves the new data right after another connection loads and bumps the version', async () => {
    const path = '/api/v1/failures?limit=50';
    const { hit: before } = await viaFrontDoor(ctx, path);
    await ctx.database.writer.db.transaction().execute(async (trx) => {
      await trx
        .insertInto('failures')
        .values({ ...FAILURES[0], cert: 99998, name: 'Front Door Bank', closing_date: '2025-07-31' })
        .execute();
      await bumpDatasetVersion(trx);
    });
    if (backend.name === 'postgres') await new Promise((resolve) => setTimeout(resolve, 300));
    const after = await get(ctx.origin, path);
    expect(JSON.parse(after.body.toString()).data[0].name).toBe('Front Door Bank');
    expect(after.headers.etag).not.toBe(before.headers.etag);
    expect((await get(ctx.origin, path, { 'if-none-match': String(before.headers.etag) })).status).toBe(200);
    await ctx.database.writer.db.deleteFrom('failures').where('cert', '=', 99998).execute();
    await bumpDatasetVersion(ctx.database.writer.db);
  });
});

describe.each(testBackends())('the cache front door with rate limiting on $name', (backend) => {
  const ctx = useServedApp(backend, { rateLimitMax: 3, rateLimitWindowSeconds: 60 });

  it('stands aside: cached answers pass the limiter and carry its headers', async () => {
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push(await get(ctx.origin, URL));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 429]);
    expect(answers[2]?.headers['ratelimit-remaining']).toBe('0');
    expect(answers[3]?.headers['retry-after']).toBeDefined();
  });
});
