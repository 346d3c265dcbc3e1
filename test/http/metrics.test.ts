import { describe, expect, it } from 'vitest';
import { bumpDatasetVersion } from '../../src/db/dataset.js';
import { seedFailures } from '../fixtures/failures.js';
import { useTestApp } from '../helpers/app.js';
import { testBackends } from '../helpers/backends.js';

function sample(body: string, prefix: string): number | undefined {
  const line = body.split('\n').find((l) => l.startsWith(prefix));
  return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(' ') + 1));
}

describe.each(testBackends())('GET /metrics on $name', (backend) => {
  const ctx = useTestApp(backend, seedFailures, { versionPollMs: 50 });

  it('serves the Prometheus text format, uncached and uncompressed by the data cache', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: '/metrics' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(response.headers.etag).toBeUndefined();
    expect(response.body).toContain('# TYPE http_request_duration_seconds histogram');
    expect(response.body).toContain('process_resident_memory_bytes');
  });

  it('counts requests by route pattern and status, and records their latency', async () => {
    await ctx.app.inject({ method: 'GET', url: '/api/v1/failures?state=IA' });
    await ctx.app.inject({ method: 'GET', url: '/api/v1/failures?state=TX' });
    await ctx.app.inject({ method: 'GET', url: '/api/v1/failures?limit=abc' });
    await ctx.app.inject({ method: 'GET', url: '/no/such/route/123' });
    const { body } = await ctx.app.inject({ method: 'GET', url: '/metrics' });
    const route = 'route="/api/v1/failures"';
    expect(sample(body, `http_requests_total{method="GET",${route},status="200"}`)).toBeGreaterThanOrEqual(2);
    expect(sample(body, `http_requests_total{method="GET",${route},status="400"}`)).toBeGreaterThanOrEqual(1);
    expect(sample(body, 'http_requests_total{method="GET",route="(unmatched)",status="404"}')).toBe(1);
    expect(body).not.toContain('/no/such/route/123');
    expect(sample(body, `http_request_duration_seconds_count{method="GET",${route}}`)).toBeGreaterThanOrEqual(
      3,
    );
    expect(
      sample(body, `http_request_duration_seconds_bucket{le="+Inf",method="GET",${route}}`),
    ).toBeGreaterThanOrEqual(3);
  });

  it('reports the dataset version being served, and cache size and lookups', async () => {
    const before = sample(
      (await ctx.app.inject({ method: 'GET', url: '/metrics' })).body,
      'regdata_dataset_version',
    );
    await bumpDatasetVersion(ctx.database.writer.db);
    if (backend.name === 'postgres') await new Promise((resolve) => setTimeout(resolve, 300));
    await ctx.app.inject({ method: 'GET', url: '/api/v1/failures' });
    await ctx.app.inject({ method: 'GET', url: '/api/v1/failures' });
    const { body } = await ctx.app.inject({ method: 'GET', url: '/metrics' });
    expect(sample(body, 'regdata_dataset_version')).toBe(Number(before) + 1);
    expect(sample(body, 'regdata_cache_bytes')).toBeGreaterThan(0);
    expect(sample(body, 'regdata_cache_lookups_total{result="hit"}')).toBeGreaterThanOrEqual(1);
    expect(sample(body, 'regdata_cache_lookups_total{result="miss"}')).toBeGreaterThanOrEqual(1);
  });
});
