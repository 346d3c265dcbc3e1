/** Every error of the banking API is the same RFC 9457 problem document (STYLE habit 5). */
import { describe, expect, it } from 'vitest';
import { seedBanking } from '../fixtures/banking.js';
import { useTestApp } from '../helpers/app.js';
import { testBackends } from '../helpers/backends.js';

type Case = [method: 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, status: number];

const TYPES: Record<number, string> = {
  400: '/problems/invalid-parameter',
  404: '/problems/not-found',
  405: '/problems/method-not-allowed',
  503: '/problems/data-unavailable',
};

const CASES: Case[] = [
  ['GET', '/api/v1/banks?limit=abc', 400],
  ['GET', '/api/v1/banks?limit=0', 400],
  ['GET', '/api/v1/banks?limit=-3', 400],
  ['GET', '/api/v1/banks?offset=-1', 400],
  ['GET', '/api/v1/banks?offset=1.5', 400],
  ['GET', '/api/v1/banks?state=ZZ', 400],
  ['GET', '/api/v1/banks?state=Texas', 400],
  ['GET', '/api/v1/banks?state=OH&state=NY', 400],
  ['GET', '/api/v1/banks?minAssets=abc', 400],
  ['GET', '/api/v1/banks?maxAssets=Infinity', 400],
  ['GET', '/api/v1/banks?minAssets=NaN', 400],
  ['GET', '/api/v1/banks?minAssets=5&maxAssets=1', 400],
  ['GET', '/api/v1/banks?sortBy=size', 400],
  ['GET', '/api/v1/banks?sortDir=up', 400],
  ['GET', '/api/v1/banks?active=yes', 400],
  ['GET', `/api/v1/banks?q=${'x'.repeat(101)}`, 400],
  ['GET', '/api/v1/banks?state=ZZ&limit=0&offset=-1&sortBy=x', 400],
  ['GET', '/api/v1/financials?cert=abc', 400],
  ['GET', '/api/v1/financials?cert=0', 400],
  ['GET', '/api/v1/financials?date=2024-02-30', 400],
  ['GET', '/api/v1/financials?date=yesterday', 400],
  ['GET', '/api/v1/financials?state=XX', 400],
  ['GET', '/api/v1/financials?limit=1e2', 400],
  ['GET', '/api/v1/financials?cert=1&cert=2', 400],
  ['GET', '/api/v1/macro', 400],
  ['GET', '/api/v1/macro?series=', 400],
  ['GET', '/api/v1/macro?series=NOPE', 400],
  ['GET', '/api/v1/macro?series=DGS10,nope', 400],
  ['GET', '/api/v1/macro?series=DGS10&start=2010-13-01', 400],
  ['GET', '/api/v1/macro?series=DGS10&start=2012-01-01&end=2011-01-01', 400],
  ['GET', '/api/v1/macro?series=DGS10&limit=zero', 400],
  ['GET', '/api/v1/failures?year=1933', 400],
  ['GET', '/api/v1/failures?year=abcd', 400],
  ['GET', '/api/v1/financials?cert=999999', 404],
  ['GET', '/api/v1/financials?cert=119', 404],
  ['GET', '/api/v1/financials?date=1999-12-31', 404],
  ['GET', '/api/v1/financials?cert=101&date=2001-01-01', 404],
  ['GET', '/api/v1/bank', 404],
  ['GET', '/api/v1/banks/101', 404],
  ['GET', '/api/v2/banks', 404],
  ['GET', '/api/v1/macro/DGS10', 404],
  ['HEAD', '/api/v1/nothing-here', 404],
  ['POST', '/api/v1/banks', 405],
  ['PUT', '/api/v1/financials', 405],
  ['PATCH', '/api/v1/macro', 405],
  ['DELETE', '/api/v1/failures', 405],
  ['DELETE', '/api/v1/banks?state=TX', 405],
  ['GET', '/api/v1/macro?series=UNRATE', 503],
];

describe.each(testBackends())('problem documents of the banking API on $name', (backend) => {
  const ctx = useTestApp(backend, seedBanking);

  it('covers at least 30 different bad URLs', () => {
    expect(new Set(CASES.map(([method, url]) => `${method} ${url}`)).size).toBeGreaterThanOrEqual(30);
  });

  it.each(CASES)('%s %s → %i problem+json with CORS', async (method, url, status) => {
    const response = await ctx.app.inject({ method, url });
    expect(response.statusCode).toBe(status);
    expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(response.headers['access-control-allow-origin']).toBe('*');
    if (method === 'HEAD') {
      expect(response.body).toBe('');
      return;
    }
    const body = JSON.parse(response.body);
    expect(body).toMatchObject({ type: TYPES[status], status, instance: url });
    expect(typeof body.title).toBe('string');
    expect(body.title.length).toBeGreaterThan(0);
    expect(typeof body.detail).toBe('string');
    expect(body.detail.length).toBeGreaterThan(0);
    const allowed = ['type', 'title', 'status', 'detail', 'instance', 'errors', 'request_id'];
    expect(Object.keys(body).filter((key) => !allowed.includes(key))).toEqual([]);
    if (status === 400) {
      expect(body.errors.length).toBeGreaterThan(0);
      for (const error of body.errors) {
        expect(Object.keys(error).sort()).toEqual(['message', 'param']);
        expect(body.detail).toContain(error.param);
      }
    } else {
      expect(body.errors).toBeUndefined();
    }
    if (status === 405) expect(response.headers.allow).toBe('GET, HEAD, OPTIONS');
  });
});
