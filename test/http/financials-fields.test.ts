/**
 * SPEC §5 additions to /api/v1/financials and the catalogue endpoint: `fields=`, `{field}__op`
 * filters, `sortBy` on any field. Expected answers are computed here from the fixture rows.
 */
import { describe, expect, it } from 'vitest';
import { FINANCIAL_FIELDS } from '../../src/banking/fields/catalogue.js';
import { FINANCIALS, INSTITUTIONS, QUARTERS, seedBanking } from '../fixtures/banking.js';
import { getJson, useTestApp } from '../helpers/app.js';
import { testBackends } from '../helpers/backends.js';

const LATEST = QUARTERS.at(-1)!;
/** The fixture rows, typed as the catalogue values they hold. */
type Row = { readonly cert: number; readonly report_date: string; readonly [field: string]: unknown };
const ROWS = FINANCIALS as unknown as Row[];
const atLatest = ROWS.filter((row) => row.report_date === LATEST);
const value = (row: Row, field: string) => (row[field] ?? null) as number | null;

/** Sorted as SPEC §5 says: by the field, nulls last, ties by cert ascending. */
function sorted(rows: Row[], field: string, dir: 'asc' | 'desc'): number[] {
  return [...rows]
    .sort((a, b) => {
      const x = value(a, field);
      const y = value(b, field);
      if (x === null || y === null) return x === y ? a.cert - b.cert : x === null ? 1 : -1;
      return (dir === 'asc' ? x - y : y - x) || a.cert - b.cert;
    })
    .map((row) => row.cert);
}

describe.each(testBackends())('financials fields, filters and sorting on $name', (backend) => {
  const ctx = useTestApp(backend, seedBanking);

  it('GET /api/v1/fields serves the whole catalogue with units and FDIC codes', async () => {
    const { status, body } = await getJson(ctx.app, '/api/v1/fields');
    expect(status).toBe(200);
    expect(body.map((f: { name: string }) => f.name)).toEqual(FINANCIAL_FIELDS.map((f) => f.name));
    expect(body.find((f: { name: string }) => f.name === 'total_assets')).toMatchObject({
      fdic_field: 'ASSET',
      unit: 'thousands_usd',
      kind: 'stock',
    });
    expect(body.find((f: { name: string }) => f.name === 'roa')).toMatchObject({
      unit: 'percent',
      kind: 'ratio',
    });
  });

  it('GET /api/v1/fields.md is the reference page of the same catalogue', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: '/api/v1/fields.md' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/markdown; charset=utf-8');
    for (const field of FINANCIAL_FIELDS)
      expect(response.body).toContain(`| \`${field.name}\` | \`${field.fdic_field}\` |`);
  });

  it('fields= gives cert, name, report_date and the fields asked for, in that order', async () => {
    const { status, body } = await getJson(
      ctx.app,
      '/api/v1/financials?fields=roa, Total_Assets,roa,net_income',
    );
    expect(status).toBe(200);
    expect(Object.keys(body.data[0])).toEqual([
      'cert',
      'name',
      'report_date',
      'roa',
      'total_assets',
      'net_income',
    ]);
    const giant = body.data.find((r: { cert: number }) => r.cert === 109);
    const expected = atLatest.find((row) => row.cert === 109)!;
    expect(giant).toMatchObject({ total_assets: expected.total_assets, net_income: expected.net_income });
    // Written as bytes a few records at a time (jsonListBytes): JSON, compact, typed as JSON.
    const raw = await ctx.app.inject({ method: 'GET', url: '/api/v1/financials?fields=roa,total_assets' });
    expect(raw.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(raw.body).toBe(JSON.stringify(JSON.parse(raw.body)));
    expect(JSON.parse(raw.body).data).toHaveLength(atLatest.length);
    const history = await getJson(ctx.app, '/api/v1/financials?cert=101&fields=total_equity');
    expect(history.body.data.map((r: { total_equity: number }) => r.total_equity)).toEqual(
      ROWS.filter((row) => row.cert === 101)
        .sort((a, b) => b.report_date.localeCompare(a.report_date))
        .map((row) => row.total_equity),
    );
  });

  it('filters combine with AND; nulls never match a comparison; total counts the filtered rows', async () => {
    const url = '/api/v1/financials?total_assets__gte=1000000&total_deposits__lt=3000000000&limit=500';
    const { body } = await getJson(ctx.app, url);
    const expected = atLatest.filter((row) => {
      const assets = value(row, 'total_assets');
      return assets !== null && assets >= 1_000_000 && value(row, 'total_deposits')! < 3_000_000_000;
    });
    expect(body.total).toBe(expected.length);
    expect(body.data.map((r: { cert: number }) => r.cert)).toEqual(sorted(expected, 'total_assets', 'desc'));
    const isNull = await getJson(ctx.app, '/api/v1/financials?roa__isnull=TRUE');
    expect(isNull.body.data.map((r: { cert: number }) => r.cert)).toEqual(
      atLatest.filter((row) => row.roa == null).map((row) => row.cert),
    );
    const notNull = await getJson(ctx.app, '/api/v1/financials?roa__isnull=false&roa__gt=-100');
    expect(notNull.body.total).toBe(atLatest.filter((row) => row.roa != null).length);
    const cert = await getJson(ctx.app, '/api/v1/financials?cert=101&total_assets__gt=4800000');
    expect(cert.body.total).toBe(
      ROWS.filter((r) => r.cert === 101 && value(r, 'total_assets')! > 4_800_000).length,
    );
  });

  it('sortBy any field, both directions, nulls last, ties by cert', async () => {
    for (const dir of ['asc', 'desc'] as const) {
      const { body } = await getJson(ctx.app, `/api/v1/financials?sortBy=ROA&sortDir=${dir}&limit=500`);
      expect(body.data.map((r: { cert: number }) => r.cert)).toEqual(sorted(atLatest, 'roa', dir));
      const loans = await getJson(ctx.app, `/api/v1/financials?sortBy=total_loans&sortDir=${dir}`);
      expect(loans.body.data.map((r: { cert: number }) => r.cert)).toEqual(
        sorted(atLatest, 'total_loans', dir),
      );
    }
    expect(INSTITUTIONS.length).toBeGreaterThan(atLatest.length);
  });

  it('names every bad field, operator and value in one 400, with the nearest field names', async () => {
    const url =
      '/api/v1/financials?fields=roa,totl_assets&sortBy=asets&total_asets__gte=1&roa__between=1&roe__lt=abc&roa__isnull=maybe';
    const { status, body } = await getJson(ctx.app, url);
    expect(status).toBe(400);
    const byParam = Object.fromEntries(
      body.errors.map((e: { param: string; message: string }) => [e.param, e.message]),
    );
    expect(Object.keys(byParam).sort()).toEqual(
      ['fields', 'sortBy', 'total_asets__gte', 'roa__between', 'roe__lt', 'roa__isnull'].sort(),
    );
    expect(byParam.fields).toMatch(/unknown field "totl_assets"; nearest: total_assets/);
    expect(byParam.total_asets__gte).toMatch(/nearest: total_assets/);
    expect(byParam.roa__between).toMatch(/unknown operator "__between"/);
    expect(byParam.roe__lt).toBe('must be a finite number');
    expect(byParam.roa__isnull).toBe('must be true or false');
    const repeated = await getJson(ctx.app, '/api/v1/financials?roa__gt=1&roa__gt=2');
    expect(repeated.body.errors).toEqual([{ param: 'roa__gt', message: 'must be given at most once' }]);
  });
});
