/** Bad holdings URLs all answer with the canonical RFC 9457 problem shape (STYLE habit 5). */
import { describe, expect, it } from 'vitest';
import { seedHoldings } from '../fixtures/holdings.js';
import { getJson, useTestApp } from '../helpers/app.js';
import { testBackends } from '../helpers/backends.js';

const BAD_URLS: [string, number][] = [
  ['/api/holdings/abc', 400],
  ['/api/holdings/12345678901', 400],
  ['/api/holdings/1067983?quarter=2025-Q0', 400],
  ['/api/holdings/1067983/timeline?x=1&cik=2', 200],
  ['/api/holdings?quarter=Q4-2025', 400],
  ['/api/holdings?mode=stocks&cusip=123', 400],
  ['/api/holdings?limit=-5&offset=-1', 400],
  ['/api/holdings?limit=1.5', 400],
  ['/api/holdings?q=a&q=b', 400],
  ['/api/holdings?q=' + 'x'.repeat(101), 400],
  ['/api/crowded?limit=abc', 400],
  ['/api/crowded?quarter=2019-Q2', 404],
  ['/api/smart-money?limit=0', 400],
  ['/api/overlap', 400],
  ['/api/overlap?ciks=1067983', 400],
  ['/api/overlap?ciks=1,2,3,4,5,6', 400],
  ['/api/compare?cik1=1067983&cik2=1067983', 400],
  ['/api/compare', 400],
  ['/api/advisers?state=ZZ', 400],
  ['/api/advisers?aum_min=NaN', 400],
  ['/api/advisers?aum_min=Infinity', 400],
  ['/api/advisers?order=sideways', 400],
  ['/api/advisers/abc', 400],
  ['/api/advisers/123', 404],
  ['/api/holdings/0000000042', 404],
  ['/api/macro?series=XYZ', 400],
  ['/api/macro?start=2020-13-01', 400],
  ['/api/nope', 404],
];

describe.each(testBackends())('holdings problem documents on $name', (backend) => {
  const ctx = useTestApp(backend, seedHoldings);

  it.each(BAD_URLS.filter(([, status]) => status !== 200))(
    '%s → %i problem document',
    async (url, status) => {
      const { status: actual, headers, body } = await getJson(ctx.app, url);
      expect(actual).toBe(status);
      expect(headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(headers['access-control-allow-origin']).toBe('*');
      expect(headers['x-request-id']).toBeTruthy();
      const keys =
        status === 400
          ? ['detail', 'errors', 'instance', 'status', 'title', 'type']
          : ['detail', 'instance', 'status', 'title', 'type'];
      expect(Object.keys(body).sort()).toEqual(keys);
      expect(body.status).toBe(status);
      expect(body.type).toBe(status === 400 ? '/problems/invalid-parameter' : '/problems/not-found');
      expect(body.instance).toBe(url);
      expect(typeof body.detail).toBe('string');
      if (status === 400) {
        expect(body.errors.length).toBeGreaterThan(0);
        for (const error of body.errors) expect(Object.keys(error).sort()).toEqual(['message', 'param']);
      }
    },
  );

  it('ignores unknown parameters on holdings routes', async () => {
    const [url] = BAD_URLS.find(([, status]) => status === 200) as [string, number];
    expect((await getJson(ctx.app, url)).status).toBe(200);
  });

  it('lists every bad parameter, not only the first', async () => {
    const { body } = await getJson(ctx.app, '/api/holdings?mode=x&quarter=y&cusip=z&limit=0&offset=-1');
    expect(body.errors.map((e: { param: string }) => e.param).sort()).toEqual([
      'cusip',
      'limit',
      'mode',
      'offset',
      'quarter',
    ]);
  });

  it('answers write methods with 405 on holdings routes', async () => {
    const response = await ctx.app.inject({ method: 'DELETE', url: '/api/holdings/1067983' });
    expect(response.statusCode).toBe(405);
    expect(JSON.parse(response.body).type).toBe('/problems/method-not-allowed');
  });
});
