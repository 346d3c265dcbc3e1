/**
 * `regdata ingest fred` against recorded FRED responses on 127.0.0.1: the JSON API with a key,
 * the keyless fredgraph.csv in both header generations, and `--from` files. "." and empty values
 * are omitted, never zero.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Backend, type TestDatabase, testBackends } from '../helpers/backends.js';
import { type ApiUnderTest, openApi } from './helpers/api.js';
import { ingestJson } from './helpers/cli.js';
import { FIXTURES, fixture, json, startUpstream, type Upstream } from './helpers/upstream.js';

const KEY = 'abcdefghijklmnopqrstuvwxyz012345';

function csvReply(name: string) {
  return { headers: { 'content-type': 'text/csv' }, body: fixture(`fred/${name}`) };
}

describe.each(testBackends())('FRED ingest on $name', (backend: Backend) => {
  let database: TestDatabase;
  let upstream: Upstream;
  let api: ApiUnderTest;
  let env: Record<string, string>;

  beforeAll(async () => {
    database = await backend.create();
    upstream = await startUpstream({
      '/fred/series': () => json(fixture('fred/series-DGS10.json').toString()),
      '/fred/series/observations': (_url, hit) =>
        hit === 1
          ? { status: 429, headers: { 'retry-after': '0' }, body: '' }
          : json(fixture('fred/observations-DGS10.json').toString()),
      '/graph/fredgraph.csv': (url) =>
        csvReply(
          url.searchParams.get('id') === 'DGS10'
            ? 'fredgraph-DGS10-legacy.csv'
            : 'fredgraph-T10Y2Y-current.csv',
        ),
    });
    api = await openApi(database);
    env = {
      DATABASE_URL: database.url,
      FRED_API_URL: `${upstream.baseUrl}/fred`,
      FRED_GRAPH_URL: `${upstream.baseUrl}/graph/fredgraph.csv`,
    };
  });
  afterAll(async () => {
    await api?.close();
    await upstream?.close();
    await database?.drop();
  });

  const macro = async (series: string) =>
    (await api.get(`/api/v1/macro?series=${series}&start=2020-01-01`)).body;

  it('uses the JSON API with FRED_API_KEY: metadata from /series, "." omitted', async () => {
    const { code, summary, stderr } = await ingestJson(['fred', '--series', 'DGS10'], {
      ...env,
      FRED_API_KEY: KEY,
    });
    expect(code, stderr).toBe(0);
    expect(summary).toMatchObject({ ok: true, read: 11, inserted: 10, rejected: 0 });
    expect(summary.skipped).toEqual({ "missing value ('.' or empty): omitted": 2 });
    expect(stderr).not.toContain(KEY);
    expect(upstream.requests.some((r) => r.includes(`api_key=${KEY}`) && r.includes('file_type=json'))).toBe(
      true,
    );
    const body = await macro('DGS10');
    const data = body.series.DGS10.data as { date: string; value: number }[];
    expect(data.map((o) => o.date)).not.toContain('2020-12-25');
    expect(data.map((o) => o.date)).not.toContain('2021-01-01');
    expect(data).toContainEqual({ date: '2020-12-21', value: 0.95 });
    expect(data.every((o) => o.value !== 0)).toBe(true);
    expect(body.series.DGS10.meta).toMatchObject({
      units: 'Percent',
      last_updated: '2026-07-01T16:02:03-05:00',
    });
  });

  it('falls back to the keyless fredgraph.csv, reading both header generations', async () => {
    const { code, summary, stderr } = await ingestJson(['fred', '--series', 'DGS10,T10Y2Y'], env);
    expect(code, stderr).toBe(0);
    // Counts cover both tables: T10Y2Y is new (9 observations + 1 series row), DGS10 refreshed (9 + 1).
    expect(summary).toMatchObject({ ok: true, read: 22, inserted: 10, updated: 10, rejected: 0 });
    expect(summary.skipped["missing value ('.' or empty): omitted"]).toBe(4);
    const body = await macro('DGS10,T10Y2Y');
    expect(body.series.DGS10.data).toHaveLength(9);
    const spread = body.series.T10Y2Y.data as { date: string; value: number }[];
    expect(spread.map((o) => o.date)).toEqual([
      '2025-12-19',
      '2025-12-22',
      '2025-12-23',
      '2025-12-24',
      '2025-12-26',
      '2025-12-29',
      '2025-12-30',
      '2025-12-31',
      '2026-01-02',
    ]);
    expect(spread[0]).toEqual({ date: '2025-12-19', value: 0.68 });
  });

  it('reads --from files and replaces only the series they hold', async () => {
    const file = join(FIXTURES, 'fred', 'fredgraph-T10Y2Y-current.csv');
    const { summary } = await ingestJson(['fred', '--from', file], env);
    expect(summary).toMatchObject({ ok: true, read: 11, inserted: 0, updated: 10, removed: 0 });
    expect((await macro('DGS10')).series.DGS10.data).toHaveLength(9);
  });

  it('rejects a file that is not a FRED export, changing nothing', async () => {
    const before = (await api.get('/api/v1/meta')).body.dataset_version;
    const file = join(FIXTURES, 'bankfind', 'institutions.json');
    const { code, summary } = await ingestJson(['fred', '--from', file], env);
    expect(code).toBe(1);
    expect(summary.error).toMatch(/no "observations" array/);
    expect((await api.get('/api/v1/meta')).body.dataset_version).toBe(before);
  });
});
