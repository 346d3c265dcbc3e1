import { describe, expect, it } from 'vitest';
import { FINANCIALS, QUARTERS, seedBanking } from '../fixtures/banking.js';
import { getJson, useTestApp } from '../helpers/app.js';
import { testBackends } from '../helpers/backends.js';

type Financial = { cert: number; report_date: string };
const certs = (body: { data: Financial[] }) => body.data.map((r) => r.cert);
const dates = (body: { data: Financial[] }) => body.data.map((r) => r.report_date);
const LATEST = QUARTERS.at(-1)!;

describe.each(testBackends())('GET /api/v1/financials on $name', (backend) => {
  const ctx = useTestApp(backend, seedBanking);

  it('defaults to the latest report date, by total assets descending (unknown last), ties by cert', async () => {
    const { status, body } = await getJson(ctx.app, '/api/v1/financials');
    expect(status).toBe(200);
    expect(body).toMatchObject({ date: LATEST, limit: 20, offset: 0 });
    expect(body.total).toBe(FINANCIALS.filter((f) => f.report_date === LATEST).length);
    expect(certs(body)).toEqual([109, 112, 101, 102, 103, 104, 110]);
  });

  it('returns the seed fields first, then the extensions, with null for unreported values', async () => {
    const { body } = await getJson(ctx.app, '/api/v1/financials?state=TX');
    const unknown = body.data.find((r: Financial) => r.cert === 110);
    expect(Object.keys(unknown)).toEqual([
      'cert',
      'name',
      'report_date',
      'total_assets',
      'total_deposits',
      'total_loans',
      'roa',
      'roe',
      'efficiency_ratio',
      'npl_ratio',
      'tier1_leverage',
      'state',
      'equity_ratio',
      'loan_to_deposit',
      'charge_off_rate',
    ]);
    expect(unknown).toMatchObject({
      name: 'Unknown Size Bank',
      total_assets: null,
      roa: null,
      roe: null,
      state: 'TX',
    });
    const lone = body.data.find((r: Financial) => r.cert === 101);
    expect(lone).toMatchObject({
      name: 'Lone Star Bank & Trust',
      total_assets: 5_000_000,
      roa: 1.05,
      tier1_leverage: 9.5,
    });
  });

  it('filters by state (case-insensitive) at the resolved date', async () => {
    const { body } = await getJson(ctx.app, '/api/v1/financials?state=tx');
    expect(certs(body)).toEqual([101, 102, 103, 110]);
    expect(body.total).toBe(4);
    const empty = await getJson(ctx.app, '/api/v1/financials?state=VT');
    expect(empty.body).toMatchObject({ data: [], total: 0, date: LATEST });
  });

  it.each([
    ['2024-06-30', '2024-06-30'],
    ['2024-08-15', '2024-06-30'],
    ['2024-01-01', '2023-12-31'],
    ['2023-12-31', '2023-12-31'],
    ['2030-01-01', LATEST],
  ])('date=%s resolves to the latest report date on or before it (%s)', async (date, resolved) => {
    const { status, body } = await getJson(ctx.app, `/api/v1/financials?date=${date}`);
    expect(status).toBe(200);
    expect(body.date).toBe(resolved);
    expect(body.data.every((r: Financial) => r.report_date === resolved)).toBe(true);
    expect(body.total).toBe(FINANCIALS.filter((f) => f.report_date === resolved).length);
  });

  it('answers 404 for a date before the first report date', async () => {
    const { status, headers, body } = await getJson(ctx.app, '/api/v1/financials?date=2023-12-30');
    expect(status).toBe(404);
    expect(headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(body.type).toBe('/problems/not-found');
  });

  it("cert: the institution's history, newest first; date = newest report date returned", async () => {
    const { body } = await getJson(ctx.app, '/api/v1/financials?cert=101');
    expect(dates(body)).toEqual([...QUARTERS].reverse());
    expect(body).toMatchObject({ date: LATEST, total: 4, limit: 20, offset: 0 });
    const older = await getJson(ctx.app, '/api/v1/financials?cert=105');
    expect(older.body.date).toBe('2024-03-31');
  });

  it('cert with date: only reports on or before it', async () => {
    const { body } = await getJson(ctx.app, '/api/v1/financials?cert=101&date=2024-05-01');
    expect(dates(body)).toEqual(['2024-03-31', '2023-12-31']);
    expect(body).toMatchObject({ date: '2024-03-31', total: 2 });
  });

  it('cert history pages: date follows the page, total stays', async () => {
    const page = await getJson(ctx.app, '/api/v1/financials?cert=101&limit=3&offset=3');
    expect(dates(page.body)).toEqual(['2023-12-31']);
    expect(page.body).toMatchObject({ date: '2023-12-31', total: 4, limit: 3, offset: 3 });
    const past = await getJson(ctx.app, '/api/v1/financials?cert=101&offset=10');
    expect(past.body).toMatchObject({ data: [], date: LATEST, total: 4 });
  });

  it('cert and state: both filters apply', async () => {
    const inside = await getJson(ctx.app, '/api/v1/financials?cert=101&state=tx');
    expect(inside.body.total).toBe(4);
    const outside = await getJson(ctx.app, '/api/v1/financials?cert=101&state=OH');
    expect(outside.status).toBe(200);
    expect(outside.body).toMatchObject({ data: [], date: null, total: 0 });
  });

  it.each([
    ['cert=999999', 'No institution with cert 999999'],
    ['cert=119', 'No financial reports for cert 119'],
    ['cert=101&date=2020-01-01', 'No financial reports for cert 101 on or before 2020-01-01'],
  ])('%s → 404', async (query, detail) => {
    const { status, body } = await getJson(ctx.app, `/api/v1/financials?${query}`);
    expect(status).toBe(404);
    expect(body.detail).toBe(detail);
  });

  it('walks every page of one report date once', async () => {
    const total = FINANCIALS.filter((f) => f.report_date === '2023-12-31').length;
    const seen: number[] = [];
    for (let offset = 0; offset < total; offset += 2) {
      const { body } = await getJson(ctx.app, `/api/v1/financials?date=2023-12-31&limit=2&offset=${offset}`);
      expect(body.total).toBe(total);
      seen.push(...certs(body));
    }
    expect(new Set(seen).size).toBe(total);
    expect(seen.length).toBe(total);
  });

  it('clamps limit to 500', async () => {
    expect((await getJson(ctx.app, '/api/v1/financials?limit=10000')).body.limit).toBe(500);
  });

  it('lists every bad parameter in one 400', async () => {
    const { status, body } = await getJson(
      ctx.app,
      '/api/v1/financials?cert=abc&state=XX&date=2024-02-30&limit=-5&offset=1.5',
    );
    expect(status).toBe(400);
    expect(body.errors.map((e: { param: string }) => e.param).sort()).toEqual([
      'cert',
      'date',
      'limit',
      'offset',
      'state',
    ]);
  });

  it.each(['cert=0', 'cert=1.5', 'cert=1e3', 'date=2024-6-30', 'date=20240630', 'cert=1&cert=2'])(
    'rejects %s',
    async (query) => {
      const { status, body } = await getJson(ctx.app, `/api/v1/financials?${query}`);
      expect(status).toBe(400);
      expect(body.errors.map((e: { param: string }) => e.param)).toEqual([query.split('=')[0]]);
    },
  );

  it('answers HEAD like GET without a body', async () => {
    const response = await ctx.app.inject({ method: 'HEAD', url: '/api/v1/financials?cert=101' });
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe('');
  });
});

describe.each(testBackends())('GET /api/v1/financials and /banks with nothing loaded on $name', (backend) => {
  const ctx = useTestApp(backend, async () => {});

  it('answers 503 naming the ingest command', async () => {
    const { status, body } = await getJson(ctx.app, '/api/v1/financials');
    expect(status).toBe(503);
    expect(body.type).toBe('/problems/data-unavailable');
    expect(body.detail).toContain('regdata ingest fdic-financials');
    const history = await getJson(ctx.app, '/api/v1/financials?cert=101');
    expect(history.status).toBe(503);
    const banks = await getJson(ctx.app, '/api/v1/banks');
    expect(banks.status).toBe(503);
    expect(banks.body.detail).toContain('regdata ingest fdic-institutions');
  });
});
