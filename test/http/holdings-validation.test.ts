/** Every holdings validation rule (SPEC §1, §3) on the hand-built fixture, plus the 503 answers. */
import { describe, expect, it } from 'vitest';
import { CIK, CUSIP, seedHoldings, seedNothing } from '../fixtures/holdings.js';
import { getJson, useTestApp } from '../helpers/app.js';
import { testBackends } from '../helpers/backends.js';

const params = (body: { errors?: { param: string }[] }) => (body.errors ?? []).map((e) => e.param).sort();

describe.each(testBackends())('holdings validation on $name', (backend) => {
  const ctx = useTestApp(backend, seedHoldings);

  it('accepts a CIK with or without leading zeros and answers with 10 digits', async () => {
    const short = await getJson(ctx.app, `/api/holdings/${CIK.A}`);
    const padded = await getJson(ctx.app, '/api/holdings/0001067983');
    expect(short.status).toBe(200);
    expect(padded.body).toEqual(short.body);
    expect(short.body.cik).toBe('0001067983');
  });

  it.each([
    ['/api/holdings/abc', 'cik'],
    ['/api/holdings/12345678901', 'cik'],
    ['/api/holdings/12a/timeline', 'cik'],
    ['/api/holdings?quarter=2025Q4', 'quarter'],
    ['/api/holdings?quarter=2025-Q5', 'quarter'],
    ['/api/crowded?quarter=25-Q1', 'quarter'],
    ['/api/holdings?mode=stocks&cusip=03783310', 'cusip'],
    ['/api/holdings?mode=stocks&cusip=037833-00', 'cusip'],
    ['/api/holdings?mode=bonds', 'mode'],
    ['/api/advisers/12x', 'crd'],
    ['/api/advisers?sort=size', 'sort'],
    ['/api/advisers?aum_min=abc', 'aum_min'],
    ['/api/crowded?limit=0', 'limit'],
    ['/api/smart-money?limit=abc', 'limit'],
  ])('%s → 400 naming %s', async (url, param) => {
    const { status, headers, body } = await getJson(ctx.app, url);
    expect(status).toBe(400);
    expect(headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(params(body)).toEqual([param]);
  });

  it('accepts lower-case quarters and CUSIPs', async () => {
    expect((await getJson(ctx.app, '/api/crowded?quarter=2025-q3')).body.quarter).toBe('2025-Q3');
    const holders = await getJson(ctx.app, `/api/holdings?mode=stocks&cusip=${CUSIP.NVDA.toLowerCase()}`);
    expect(holders.body.security.cusip).toBe(CUSIP.NVDA);
  });

  it('answers 404 for well-formed identifiers without data', async () => {
    for (const url of [
      '/api/holdings?quarter=2019-Q1',
      '/api/crowded?quarter=2019-Q1',
      `/api/holdings/${CIK.A}?quarter=2019-Q1`,
      '/api/holdings/9999999',
      '/api/holdings/9999999/timeline',
      `/api/holdings?mode=stocks&cusip=${CUSIP.XOM}`,
      '/api/holdings?mode=stocks&cusip=AAAAAAAAA',
      '/api/advisers/42',
      `/api/overlap?ciks=${CIK.A},9999999`,
      `/api/compare?cik1=${CIK.A}&cik2=9999999`,
    ]) {
      const { status, body } = await getJson(ctx.app, url);
      expect({ url, status, type: body.type }).toEqual({ url, status: 404, type: '/problems/not-found' });
    }
  });

  it('needs 2 to 5 distinct CIKs for overlap', async () => {
    for (const ciks of [
      '1067983',
      '1067983,0001067983',
      '1,2,3,4,5,6',
      'abc,1067983',
      '',
      '1067983,123456789012',
    ]) {
      const { status, body } = await getJson(ctx.app, `/api/overlap?ciks=${ciks}`);
      expect({ ciks, status, params: params(body) }).toEqual({ ciks, status: 400, params: ['ciks'] });
    }
    const five = await getJson(ctx.app, `/api/overlap?ciks=${CIK.A},${CIK.B},${CIK.D},${CIK.E},${CIK.B}`);
    expect(five.status).toBe(200);
    expect(five.body.managers).toHaveLength(4);
  });

  it('needs two different CIKs for compare', async () => {
    const same = await getJson(ctx.app, `/api/compare?cik1=${CIK.A}&cik2=000${CIK.A}`);
    expect(same.status).toBe(400);
    expect(params(same.body)).toEqual(['cik2']);
    const missing = await getJson(ctx.app, '/api/compare?cik1=1067983');
    expect(params(missing.body)).toEqual(['cik2']);
    const both = await getJson(ctx.app, '/api/compare?cik1=x&cik2=12345678901');
    expect(params(both.body)).toEqual(['cik1', 'cik2']);
  });

  it('clamps limits to their maxima and reports the value applied', async () => {
    const crowded = await getJson(ctx.app, '/api/crowded?limit=1000');
    expect(crowded.status).toBe(200);
    expect(crowded.body.limit).toBe(100);
    expect(crowded.body.data.length).toBeLessThanOrEqual(100);
    expect((await getJson(ctx.app, '/api/smart-money?limit=1000')).body.limit).toBe(100);
    expect((await getJson(ctx.app, '/api/holdings?limit=1000')).body.limit).toBe(200);
    expect((await getJson(ctx.app, '/api/advisers?limit=1000')).body.limit).toBe(200);
  });

  it('validates the macro parameters', async () => {
    const unknown = await getJson(ctx.app, '/api/macro?series=DGS10,NOPE');
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors[0].message).toContain('NOPE');
    const order = await getJson(ctx.app, '/api/macro?series=DGS10&start=2025-12-31&end=2025-01-01');
    expect(order.status).toBe(400);
    expect((await getJson(ctx.app, '/api/macro?series=DGS10&start=2025-02-30')).status).toBe(400);
  });
});

describe.each(testBackends())('holdings before any load on $name', (backend) => {
  const ctx = useTestApp(backend, seedNothing);

  it.each([
    '/api/stats',
    '/api/holdings',
    '/api/holdings/1067983',
    '/api/holdings/1067983/timeline',
    '/api/crowded',
    '/api/smart-money',
    '/api/overlap?ciks=1,2',
    '/api/compare?cik1=1&cik2=2',
  ])('%s → 503 naming the 13F ingest', async (url) => {
    const { status, headers, body } = await getJson(ctx.app, url);
    expect(status).toBe(503);
    expect(headers['cache-control']).toBe('no-store');
    expect(body.type).toBe('/problems/data-unavailable');
    expect(body.detail).toContain('regdata ingest sec-13f');
  });

  it.each(['/api/advisers', '/api/advisers/1'])('%s → 503 naming the adviser ingest', async (url) => {
    const { status, body } = await getJson(ctx.app, url);
    expect(status).toBe(503);
    expect(body.detail).toContain('regdata ingest sec-advisers');
  });

  it('answers /api/macro with 503 when nothing is loaded', async () => {
    const { status, body } = await getJson(ctx.app, '/api/macro');
    expect(status).toBe(503);
    expect(body.detail).toContain('regdata ingest fred');
  });
});
