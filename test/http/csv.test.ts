import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { FAILURES, seedFailures } from '../fixtures/failures.js';
import { getJson, useTestApp } from '../helpers/app.js';
import { testBackends } from '../helpers/backends.js';

describe.each(testBackends())('format=csv on $name', (backend) => {
  const ctx = useTestApp(backend, seedFailures);

  it('returns the records of a list as CSV, with a header row and a download name', async () => {
    const json = await getJson(ctx.app, '/api/v1/failures?limit=100');
    const response = await ctx.app.inject({ method: 'GET', url: '/api/v1/failures?limit=100&format=CSV' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toBe('attachment; filename="failures.csv"');
    const rows = parse(response.body, { columns: true }) as Record<string, string>[];
    expect(rows).toHaveLength(FAILURES.length);
    expect(Object.keys(rows[0] as object)).toEqual(Object.keys(json.body.data[0]));
    rows.forEach((row, i) => {
      const record = json.body.data[i] as Record<string, unknown>;
      for (const [column, value] of Object.entries(record)) {
        expect(row[column]).toBe(value === null ? '' : String(value));
      }
    });
  });

  it('answers CSV from a list whose JSON is written once (the field catalogue)', async () => {
    const json = await getJson(ctx.app, '/api/v1/fields');
    const response = await ctx.app.inject({ method: 'GET', url: '/api/v1/fields?format=csv' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toBe('attachment; filename="fields.csv"');
    const rows = parse(response.body, { columns: true }) as Record<string, string>[];
    expect(rows.map((row) => row.name)).toEqual(json.body.map((field: { name: string }) => field.name));
    // And the JSON again after the CSV: the same bytes as the first time.
    const again = await ctx.app.inject({ method: 'GET', url: '/api/v1/fields' });
    expect(again.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(JSON.parse(again.body)).toEqual(json.body);
  });

  it('quotes commas, quotes and ampersands in names (RFC 4180) and keeps UTF-8', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: '/api/v1/failures?limit=100&format=csv' });
    expect(response.body).toContain('"First ""Quoted"" Bank"');
    expect(response.body).toContain('Crédit Agricole Test');
    expect(response.body).toContain("Citizens' Bank & Trust");
  });

  it('applies filters and paging as in JSON, and gives a header-only file for no rows', async () => {
    const filtered = await ctx.app.inject({ method: 'GET', url: '/api/v1/failures?state=IA&format=csv' });
    const rows = parse(filtered.body, { columns: true }) as Record<string, string>[];
    expect(rows.map((r) => r.state)).toEqual(FAILURES.filter((f) => f.state === 'IA').map(() => 'IA'));
    const empty = await ctx.app.inject({ method: 'GET', url: '/api/v1/failures?state=WY&format=csv' });
    expect(empty.statusCode).toBe(200);
    expect(empty.body.trim().split('\n')).toEqual([expect.stringContaining('cert,name,state')]);
  });

  it('rejects an unknown format with a problem document, and keeps errors as problem JSON', async () => {
    const bad = await getJson(ctx.app, '/api/v1/failures?format=xml');
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual([{ param: 'format', message: 'must be one of: json, csv' }]);
    const invalid = await ctx.app.inject({ method: 'GET', url: '/api/v1/failures?format=csv&limit=0' });
    expect(invalid.statusCode).toBe(400);
    expect(invalid.headers['content-type']).toContain('application/problem+json');
  });

  it('caches CSV and JSON as different representations', async () => {
    const json = await ctx.app.inject({ method: 'GET', url: '/api/v1/failures' });
    const csv = await ctx.app.inject({ method: 'GET', url: '/api/v1/failures?format=csv' });
    const again = await ctx.app.inject({ method: 'GET', url: '/api/v1/failures?format=csv' });
    expect(csv.headers.etag).not.toBe(json.headers.etag);
    expect(again.body).toBe(csv.body);
    expect(again.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(again.headers['content-disposition']).toBe('attachment; filename="failures.csv"');
  });

  it('declares `format` on every list route in the contract, and on no other route', async () => {
    const lists = ctx.app.routeCatalog.filter((route) => {
      const ok = route.schema?.response?.['200'] as {
        type?: string;
        properties?: { data?: { type?: string } };
      };
      return (
        route.methods.includes('GET') && (ok?.type === 'array' || ok?.properties?.data?.type === 'array')
      );
    });
    expect(lists.length).toBeGreaterThan(0);
    for (const route of lists) {
      const query = route.schema?.querystring as { properties?: Record<string, unknown> };
      expect(query?.properties?.format, route.url).toBeDefined();
    }
    const spec = (await getJson(ctx.app, '/openapi.json')).body;
    const params = spec.paths['/api/v1/failures'].get.parameters.map((p: { name: string }) => p.name);
    expect(params).toContain('format');
    expect(spec.paths['/healthz'].get.parameters ?? []).toEqual([]);
  });
});
