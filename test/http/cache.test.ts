import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it, vi } from 'vitest';
import { bumpDatasetVersion } from '../../src/db/dataset.js';
import { FAILURES, seedFailures } from '../fixtures/failures.js';
import { getJson, useTestApp } from '../helpers/app.js';
import { type Backend, testBackends } from '../helpers/backends.js';

const POLL_MS = 50;
const URL = '/api/v1/failures?limit=100';

/** PostgreSQL notices a load by polling; SQLite on the very next request. */
async function afterVersionNoticed(backend: Backend) {
  if (backend.name === 'postgres') await new Promise((resolve) => setTimeout(resolve, POLL_MS * 6));
}

async function cacheLookups(app: Parameters<typeof getJson>[0], result: 'hit' | 'miss') {
  const response = await app.inject({ method: 'GET', url: '/metrics' });
  const line = response.body
    .split('\n')
    .find((l) => l.startsWith(`regdata_cache_lookups_total{result="${result}"}`));
  return Number(line?.split(' ')[1] ?? 0);
}

describe.each(testBackends())('response cache and ETags on $name', (backend) => {
  const ctx = useTestApp(backend, seedFailures, { versionPollMs: POLL_MS });

  it('sends a strong ETag, the configured Cache-Control and Vary on a successful GET', async () => {
    const first = await ctx.app.inject({ method: 'GET', url: URL });
    expect(first.statusCode).toBe(200);
    expect(first.headers.etag).toMatch(/^"\d+-[A-Za-z0-9_-]+"$/);
    expect(first.headers['cache-control']).toBe('public, max-age=300, stale-while-revalidate=86400');
    expect(first.headers.vary).toContain('Accept-Encoding');
    const second = await ctx.app.inject({ method: 'GET', url: URL });
    expect(second.headers.etag).toBe(first.headers.etag);
    expect(second.body).toBe(first.body);
  });

  it('caches an answer of the day (freshness) per day: another day, another ETag and no stale hit', async () => {
    const first = await ctx.app.inject({ method: 'GET', url: '/api/freshness' });
    expect(first.statusCode).toBe(200);
    expect(first.headers.etag).toMatch(/^"\d+-[A-Za-z0-9_-]+"$/);
    const hitsBefore = await cacheLookups(ctx.app, 'hit');
    const again = await ctx.app.inject({ method: 'GET', url: '/api/freshness' });
    expect(again.headers.etag).toBe(first.headers.etag);
    expect(await cacheLookups(ctx.app, 'hit')).toBe(hitsBefore + 1);
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(Date.now() + 86_400_000);
      const tomorrow = await ctx.app.inject({
        method: 'GET',
        url: '/api/freshness',
        headers: { 'if-none-match': String(first.headers.etag) },
      });
      expect(tomorrow.statusCode).toBe(200);
      expect(tomorrow.headers.etag).not.toBe(first.headers.etag);
      expect(JSON.parse(tomorrow.body).as_of).not.toBe(JSON.parse(first.body).as_of);
    } finally {
      vi.useRealTimers();
    }
  });

  it('answers 304 with no body to a matching If-None-Match, and 200 to a stale one', async () => {
    const { headers } = await ctx.app.inject({ method: 'GET', url: URL });
    const etag = String(headers.etag);
    const revalidated = await ctx.app.inject({ method: 'GET', url: URL, headers: { 'if-none-match': etag } });
    expect(revalidated.statusCode).toBe(304);
    expect(revalidated.body).toBe('');
    expect(revalidated.headers.etag).toBe(etag);
    expect(revalidated.headers['cache-control']).toContain('max-age=300');
    const listed = await ctx.app.inject({
      method: 'GET',
      url: URL,
      headers: { 'if-none-match': `"0-nope", W/${etag}` },
    });
    expect(listed.statusCode).toBe(304);
    const stale = await ctx.app.inject({ method: 'GET', url: URL, headers: { 'if-none-match': '"0-nope"' } });
    expect(stale.statusCode).toBe(200);
    expect(JSON.parse(stale.body).total).toBe(FAILURES.length);
  });

  it('keys by the normalised request: case, order and unknown parameters do not matter', async () => {
    const a = await ctx.app.inject({ method: 'GET', url: '/api/v1/failures?state=tx&limit=5' });
    const b = await ctx.app.inject({ method: 'GET', url: '/api/v1/failures?limit=5&utm=x&state=TX' });
    const c = await ctx.app.inject({ method: 'GET', url: '/api/v1/failures?state=IA&limit=5' });
    expect(a.headers.etag).toBe(b.headers.etag);
    expect(a.body).toBe(b.body);
    expect(c.headers.etag).not.toBe(a.headers.etag);
  });

  it('counts hits and misses', async () => {
    const url = '/api/v1/failures?year=2024';
    const [hits, misses] = [await cacheLookups(ctx.app, 'hit'), await cacheLookups(ctx.app, 'miss')];
    await ctx.app.inject({ method: 'GET', url });
    expect(await cacheLookups(ctx.app, 'miss')).toBe(misses + 1);
    await ctx.app.inject({ method: 'GET', url });
    await ctx.app.inject({ method: 'GET', url: '/api/v1/failures?year=2024&ignored=1' });
    expect(await cacheLookups(ctx.app, 'hit')).toBe(hits + 2);
  });

  it('compresses with gzip and brotli, each with its own ETag, and serves the variants again', async () => {
    const plain = await ctx.app.inject({ method: 'GET', url: URL });
    expect(plain.rawPayload.length).toBeGreaterThan(1024);
    for (const [coding, decode] of [
      ['gzip', gunzipSync],
      ['br', brotliDecompressSync],
    ] as const) {
      for (let round = 0; round < 2; round++) {
        const response = await ctx.app.inject({
          method: 'GET',
          url: URL,
          headers: { 'accept-encoding': coding },
        });
        expect(response.headers['content-encoding']).toBe(coding);
        expect(decode(response.rawPayload).toString()).toBe(plain.body);
        expect(response.headers.etag).not.toBe(plain.headers.etag);
        expect(response.headers.etag).toMatch(new RegExp(`-${coding}"$`));
      }
    }
    const small = await ctx.app.inject({
      method: 'GET',
      url: '/api/v1/failures?limit=1',
      headers: { 'accept-encoding': 'gzip, br' },
    });
    expect(small.headers['content-encoding']).toBeUndefined();
  });

  it('never caches errors and never gives them a success Cache-Control', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: '/api/v1/failures?limit=abc' });
    expect(response.statusCode).toBe(400);
    expect(response.headers.etag).toBeUndefined();
    expect(response.headers['cache-control']).toBeUndefined();
  });

  it('serves the new data and a new ETag right after another connection loads and bumps the version', async () => {
    const before = await ctx.app.inject({ method: 'GET', url: URL });
    await ctx.database.writer.db.transaction().execute(async (trx) => {
      await trx
        .insertInto('failures')
        .values({ ...FAILURES[0], cert: 99999, name: 'Freshly Loaded Bank', closing_date: '2025-06-30' })
        .execute();
      await bumpDatasetVersion(trx);
    });
    await afterVersionNoticed(backend);
    const after = await ctx.app.inject({ method: 'GET', url: URL });
    expect(JSON.parse(after.body).total).toBe(JSON.parse(before.body).total + 1);
    expect(JSON.parse(after.body).data[0].name).toBe('Freshly Loaded Bank');
    expect(after.headers.etag).not.toBe(before.headers.etag);
    const revalidated = await ctx.app.inject({
      method: 'GET',
      url: URL,
      headers: { 'if-none-match': String(before.headers.etag) },
    });
    expect(revalidated.statusCode).toBe(200);
    await ctx.database.writer.db.deleteFrom('failures').where('cert', '=', 99999).execute();
    await bumpDatasetVersion(ctx.database.writer.db);
  });
});

describe.each(testBackends())('with the cache disabled on $name', (backend) => {
  const ctx = useTestApp(backend, seedFailures, { cacheEnabled: false });

  it('still answers correctly, with ETags and 304s, but without cache lookups', async () => {
    const first = await getJson(ctx.app, URL);
    expect(first.body.total).toBe(FAILURES.length);
    const revalidated = await ctx.app.inject({
      method: 'GET',
      url: URL,
      headers: { 'if-none-match': String(first.headers.etag) },
    });
    expect(revalidated.statusCode).toBe(304);
    await ctx.app.inject({ method: 'GET', url: URL });
    expect(await cacheLookups(ctx.app, 'hit')).toBe(0);
    const gzip = await ctx.app.inject({ method: 'GET', url: URL, headers: { 'accept-encoding': 'gzip' } });
    expect(gunzipSync(gzip.rawPayload).toString()).toBe(JSON.stringify(first.body));
  });
});

describe.each(testBackends())('security headers on $name', (backend) => {
  const ctx = useTestApp(backend, seedFailures);

  it('sets nosniff, a referrer policy, a locked-down CSP and X-Frame-Options on API answers', async () => {
    for (const url of ['/api/v1/failures', '/api/v1/failures?limit=abc', '/nope']) {
      const { headers } = await ctx.app.inject({ method: 'GET', url });
      expect(headers['x-content-type-options']).toBe('nosniff');
      expect(headers['referrer-policy']).toBe('no-referrer');
      expect(headers['x-frame-options']).toBe('DENY');
      expect(headers['content-security-policy']).toContain("frame-ancestors 'none'");
    }
  });

  it('never forbids framing under /embed', async () => {
    const { headers } = await ctx.app.inject({ method: 'GET', url: '/embed/does-not-exist' });
    expect(headers['x-frame-options']).toBeUndefined();
    expect(String(headers['content-security-policy'] ?? '')).not.toContain("frame-ancestors 'none'");
    expect(headers['x-content-type-options']).toBe('nosniff');
  });
});
