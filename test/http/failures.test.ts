import { describe, expect, it } from 'vitest';
import { FAILURES, seedFailures } from '../fixtures/failures.js';
import { getJson, useTestApp } from '../helpers/app.js';
import { testBackends } from '../helpers/backends.js';

describe.each(testBackends())('GET /api/v1/failures on $name', (backend) => {
  const ctx = useTestApp(backend, seedFailures);

  it('lists every failure newest first, ties by cert, with the default page', async () => {
    const { status, body } = await getJson(ctx.app, '/api/v1/failures');
    expect(status).toBe(200);
    expect(body.total).toBe(FAILURES.length);
    expect(body.limit).toBe(50);
    expect(body.offset).toBe(0);
    expect(body.data.map((r: { name: string }) => r.name)).toEqual([
      'Pulaski Savings Bank',
      "Citizens' Bank & Trust",
      'New Year Bank',
      'First "Quoted" Bank',
      'Same Day A',
      'Same Day B',
      'Crédit Agricole Test',
      'Early Trust Company',
    ]);
  });

  it('returns null, not 0 or "", for payouts and missing certs', async () => {
    const { body } = await getJson(ctx.app, '/api/v1/failures?year=1934');
    expect(body.data).toEqual([
      expect.objectContaining({
        cert: null,
        acquiring_institution: null,
        closing_date: '1934-04-19',
        total_assets: null,
      }),
    ]);
  });

  it('filters by year at the calendar boundary and by state (case-insensitive)', async () => {
    const y2023 = await getJson(ctx.app, '/api/v1/failures?year=2023');
    expect(y2023.body.data.map((r: { cert: number }) => r.cert)).toEqual([10001, 20001, 20002]);
    const tx = await getJson(ctx.app, '/api/v1/failures?state=tx&year=2024');
    expect(tx.body.total).toBe(1);
    expect(tx.body.data[0].name).toBe('New Year Bank');
  });

  it('walks every page once', async () => {
    const seen: string[] = [];
    for (let offset = 0; offset < FAILURES.length; offset += 3) {
      const { body } = await getJson(ctx.app, `/api/v1/failures?limit=3&offset=${offset}`);
      expect(body.total).toBe(FAILURES.length);
      seen.push(...body.data.map((r: { name: string }) => r.name));
    }
    expect(seen.length).toBe(FAILURES.length);
    expect(new Set(seen).size).toBe(FAILURES.length);
  });

  it('rejects bad values, listing every bad parameter', async () => {
    const { status, headers, body } = await getJson(
      ctx.app,
      '/api/v1/failures?year=1933&state=ZZ&limit=0&offset=-1',
    );
    expect(status).toBe(400);
    expect(headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(body.errors.map((e: { param: string }) => e.param).sort()).toEqual([
      'limit',
      'offset',
      'state',
      'year',
    ]);
    const future = await getJson(ctx.app, `/api/v1/failures?year=${new Date().getUTCFullYear() + 1}`);
    expect(future.status).toBe(400);
    const short = await getJson(ctx.app, '/api/v1/failures?year=99');
    expect(short.status).toBe(400);
  });

  it('clamps limit to 500', async () => {
    const { body } = await getJson(ctx.app, '/api/v1/failures?limit=10000');
    expect(body.limit).toBe(500);
  });
});
