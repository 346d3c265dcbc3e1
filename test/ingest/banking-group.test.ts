/**
 * `regdata ingest banking`: every banking source in one command, against recorded upstreams on
 * 127.0.0.1 (BankFind for all quarters since FDIC_FINANCIALS_START, keyless FRED CSV); ffiec-call
 * is skipped with a reason while FFIEC_BULK_URL is empty. One summary per source.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MACRO_SERIES_IDS } from '../../src/macro/catalog.js';
import { type Backend, type TestDatabase, testBackends } from '../helpers/backends.js';
import { type ApiUnderTest, openApi } from './helpers/api.js';
import { ingestJson } from './helpers/cli.js';
import { fixture, json, startUpstream, type Upstream } from './helpers/upstream.js';

const EMPTY = { meta: { total: 0 }, data: [] };

describe.each(testBackends())('regdata ingest banking on $name', (backend: Backend) => {
  let database: TestDatabase;
  let upstream: Upstream;
  let api: ApiUnderTest;

  beforeAll(async () => {
    database = await backend.create();
    upstream = await startUpstream({
      '/banks/institutions': () => json(fixture('bankfind/institutions.json').toString()),
      '/banks/failures': (url) =>
        json(
          fixture(
            `bankfind/failures-${url.searchParams.get('offset') === '3' ? 'page2' : 'page1'}.json`,
          ).toString(),
        ),
      '/banks/financials': (url) => {
        const date = /REPDTE:(\d{8})/.exec(url.searchParams.get('filters') ?? '')?.[1] ?? '';
        return json(
          ['20231231', '20241231'].includes(date)
            ? fixture(`bankfind/financials-${date}.json`).toString()
            : EMPTY,
        );
      },
      '/graph/fredgraph.csv': (url) => {
        const id = url.searchParams.get('id') ?? '';
        // Recorded DGS10 rows, relabelled per series: the point is the request plan, not the values.
        const rows = fixture('fred/fredgraph-DGS10-legacy.csv')
          .toString()
          .replace('DATE,DGS10', `DATE,${id}`);
        return { headers: { 'content-type': 'text/csv' }, body: rows };
      },
    });
    api = await openApi(database);
  });
  afterAll(async () => {
    await api?.close();
    await upstream?.close();
    await database?.drop();
  });

  it('loads every banking source and skips ffiec-call with the reason', { timeout: 180_000 }, async () => {
    const { code, summary, stderr } = await ingestJson(['banking', '--page-size', '3'], {
      DATABASE_URL: database.url,
      FDIC_API_URL: `${upstream.baseUrl}/banks`,
      FRED_GRAPH_URL: `${upstream.baseUrl}/graph/fredgraph.csv`,
      FDIC_FINANCIALS_START: '2023-06-30',
      FFIEC_BULK_URL: '',
    });
    expect(code, stderr).toBe(0);
    expect(stderr).toMatch(/ffiec-call: skipped \(FFIEC_BULK_URL is empty/);
    expect(summary.map((s: { source: string }) => s.source)).toEqual([
      'fdic-financials',
      'fdic-institutions',
      'fdic-failures',
      'fred',
    ]);
    expect(summary.every((s: { ok: boolean }) => s.ok)).toBe(true);
    const quarters = upstream.requests.filter((r) => r.startsWith('/banks/financials')).length;
    const today = new Date().toISOString().slice(0, 10);
    const expectedQuarters =
      (Number(today.slice(0, 4)) - 2023) * 4 + Math.ceil(Number(today.slice(5, 7)) / 3) - 2;
    expect(quarters === expectedQuarters || quarters === expectedQuarters + 1).toBe(true);
    const graphIds = upstream.requests
      .filter((r) => r.startsWith('/graph/'))
      .map((r) => new URL(r, 'http://x').searchParams.get('id'));
    expect(graphIds).toEqual([...MACRO_SERIES_IDS]);
    const meta = await api.get('/api/v1/meta');
    const loaded = meta.body.sources
      .filter((s: { loaded: boolean }) => s.loaded)
      .map((s: { source: string }) => s.source);
    expect(loaded.sort()).toEqual(['fdic-failures', 'fdic-financials', 'fdic-institutions', 'fred']);
    expect(meta.body.demo).toBe(false);
    expect(
      (await api.get('/api/v1/macro?series=USREC&start=2020-12-01')).body.series.USREC.data,
    ).toHaveLength(9);
  });
});
