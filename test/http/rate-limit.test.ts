import { describe, expect, it } from 'vitest';
import { seedFailures } from '../fixtures/failures.js';
import { useTestApp } from '../helpers/app.js';
import { testBackends } from '../helpers/backends.js';

const MAX = 3;

describe.each(testBackends())('rate limiting on $name', (backend) => {
  const ctx = useTestApp(backend, seedFailures, { rateLimitMax: MAX, rateLimitWindowSeconds: 60 });
  const from = (ip: string, url = '/api/v1/failures') =>
    ctx.app.inject({ method: 'GET', url, remoteAddress: ip });

  it('lets MAX requests per IP through with RateLimit headers, then answers 429 problems', async () => {
    for (let i = 0; i < MAX; i++) {
      const ok = await from('10.0.0.1');
      expect(ok.statusCode).toBe(200);
      expect(ok.headers['ratelimit-limit']).toBe(String(MAX));
      expect(ok.headers['ratelimit-remaining']).toBe(String(MAX - i - 1));
    }
    const limited = await from('10.0.0.1');
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['content-type']).toContain('application/problem+json');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(limited.headers['retry-after'])).toBeLessThanOrEqual(60);
    expect(limited.headers['ratelimit-remaining']).toBe('0');
    expect(limited.headers['access-control-allow-origin']).toBe('*');
    expect(JSON.parse(limited.body)).toMatchObject({
      type: '/problems/rate-limited',
      title: 'Too many requests',
      status: 429,
      instance: '/api/v1/failures',
    });
  });

  it('counts cached answers too, keeps other IPs apart and exempts health probes', async () => {
    for (let i = 0; i < MAX; i++) expect((await from('10.0.0.2')).statusCode).toBe(200);
    expect((await from('10.0.0.2')).statusCode).toBe(429);
    expect((await from('10.0.0.3')).statusCode).toBe(200);
    expect((await from('10.0.0.2', '/healthz')).statusCode).toBe(200);
    expect((await from('10.0.0.2', '/metrics')).statusCode).toBe(200);
  });
});

describe.each(testBackends())('rate limiting off by default on $name', (backend) => {
  const ctx = useTestApp(backend, seedFailures);

  it('never answers 429 and sends no RateLimit headers', async () => {
    for (let i = 0; i < 50; i++) {
      const response = await ctx.app.inject({
        method: 'GET',
        url: '/api/v1/failures',
        remoteAddress: '10.0.0.9',
      });
      expect(response.statusCode).toBe(200);
      expect(response.headers['ratelimit-limit']).toBeUndefined();
    }
  });
});
