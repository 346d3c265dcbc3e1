/**
 * FRED vintages (SPEC §8) on both backends: `regdata ingest fred --vintages` against a real HTTP
 * server answering like the FRED API with ALFRED real-time periods (UPSTREAM.md §2.1), a series
 * outside the catalogue whose values were revised across vintages; `as_of` on both macro endpoints
 * answers what was published that day, recomputed here from the periods served upstream.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Backend, type TestDatabase, testBackends } from '../helpers/backends.js';
import { type ApiUnderTest, openApi } from '../ingest/helpers/api.js';
import { ingestJson } from '../ingest/helpers/cli.js';
import { json, startUpstream, type Upstream } from '../ingest/helpers/upstream.js';

const KEY = 'abcdefghijklmnopqrstuvwxyz012345';
const OPEN = '9999-12-31';

/** Real GDP-like quarterly series: first estimates revised twice; Q2 absent until its first release. */
const PERIODS = [
  { date: '2024-01-01', realtime_start: '2024-04-25', realtime_end: '2024-05-29', value: '100.0' },
  { date: '2024-01-01', realtime_start: '2024-05-30', realtime_end: '2024-06-26', value: '101.0' },
  { date: '2024-01-01', realtime_start: '2024-06-27', realtime_end: OPEN, value: '101.5' },
  { date: '2024-04-01', realtime_start: '2024-04-25', realtime_end: '2024-07-24', value: '.' },
  { date: '2024-04-01', realtime_start: '2024-07-25', realtime_end: '2024-08-28', value: '103.0' },
  { date: '2024-04-01', realtime_start: '2024-08-29', realtime_end: OPEN, value: '103.2' },
];

/** The value of each date published on `day`, as ALFRED defines it: the period containing the day. */
function publishedOn(day: string) {
  return PERIODS.filter((p) => p.realtime_start <= day && day <= p.realtime_end && p.value !== '.')
    .map((p) => ({ date: p.date, value: Number(p.value) }))
    .sort((a, b) => (a.date < b.date ? -1 : 1));
}

describe.each(testBackends())('FRED vintages and as_of on $name', (backend: Backend) => {
  let database: TestDatabase;
  let upstream: Upstream;
  let api: ApiUnderTest;
  let env: Record<string, string>;
  let dir: string;

  beforeAll(async () => {
    database = await backend.create();
    dir = mkdtempSync(join(tmpdir(), 'regdata-vintages-'));
    upstream = await startUpstream({
      '/fred/series': () =>
        json({
          seriess: [
            {
              id: 'GDPX',
              title: 'Test Gross Domestic Product',
              units: 'Billions of Dollars',
              frequency: 'Quarterly',
              seasonal_adjustment: 'Seasonally Adjusted Annual Rate',
              last_updated: '2024-08-29 07:51:02-05',
            },
          ],
        }),
      '/fred/series/observations': (url) => {
        // ALFRED only when every real-time period is asked for; page of 4 to exercise paging.
        if (
          url.searchParams.get('realtime_start') !== '1776-07-04' ||
          url.searchParams.get('realtime_end') !== OPEN
        )
          return { status: 400, body: '{"error_message":"not a vintage request"}' };
        const offset = Number(url.searchParams.get('offset') ?? 0);
        return json({ count: PERIODS.length, offset, observations: PERIODS.slice(offset, offset + 4) });
      },
    });
    env = { DATABASE_URL: database.url, FRED_API_URL: `${upstream.baseUrl}/fred` };
    api = await openApi(database);
  });
  afterAll(async () => {
    await api?.close();
    await upstream?.close();
    await database?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('needs FRED_API_KEY (or --from) for vintages, and says so', async () => {
    const { code, summary } = await ingestJson(['fred', '--vintages', '--series', 'GDPX'], env);
    expect(code).toBe(1);
    expect(summary.error).toMatch(/FRED_API_KEY/);
  });

  it('loads every real-time period and serves the current values as the series', {
    timeout: 60_000,
  }, async () => {
    const { code, summary, stderr } = await ingestJson(['fred', '--vintages', '--series', 'GDPX'], {
      ...env,
      FRED_API_KEY: KEY,
    });
    expect(code, stderr).toBe(0);
    expect(summary.read).toBe(PERIODS.length);
    expect(upstream.requests.filter((r) => r.includes('realtime_start=1776-07-04')).length).toBe(2);
    const { status, body } = await api.get('/api/v1/macro?series=gdpx&start=2000-01-01');
    expect(status).toBe(200);
    expect(body.series.GDPX.meta).toMatchObject({
      title: 'Test Gross Domestic Product',
      units: 'Billions of Dollars',
      count: 2,
    });
    expect(body.series.GDPX.data).toEqual(publishedOn('2026-01-01'));
  });

  it.each(['2024-04-01', '2024-05-01', '2024-05-30', '2024-07-30', '2024-08-29', '2025-01-01'])(
    'as_of=%s answers what was published that day, on both endpoints',
    async (day) => {
      const v1 = await api.get(`/api/v1/macro?series=GDPX&start=2000-01-01&as_of=${day}`);
      expect(v1.status).toBe(200);
      expect(v1.body.series.GDPX.data).toEqual(publishedOn(day));
      expect(v1.body.series.GDPX.meta.count).toBe(publishedOn(day).length);
      const holdings = await api.get(`/api/macro?series=GDPX&as_of=${day}`);
      expect(holdings.body[0].observations).toEqual(publishedOn(day));
    },
  );

  it('answers as_of with 503 naming the command for a series without vintages, and a bad as_of with 400', async () => {
    const csv = join(dir, 'UNRATE.csv');
    writeFileSync(csv, 'observation_date,UNRATE\n2024-01-01,3.7\n2024-02-01,3.9\n');
    const plain = await ingestJson(['fred', '--from', csv], env);
    expect(plain.code, plain.stderr).toBe(0);
    expect((await api.get('/api/v1/macro?series=UNRATE')).status).toBe(200);
    const missing = await api.get('/api/v1/macro?series=UNRATE,GDPX&as_of=2024-06-01');
    expect(missing.status).toBe(503);
    expect(missing.body.detail).toContain('UNRATE');
    expect(missing.body.detail).toContain('regdata ingest fred --vintages');
    for (const bad of ['2024-02-30', 'yesterday', '2024-6-1']) {
      const { status, body } = await api.get(`/api/v1/macro?series=GDPX&as_of=${bad}`);
      expect(status, bad).toBe(400);
      expect(body.errors[0].param).toBe('as_of');
      expect((await api.get(`/api/macro?series=GDPX&as_of=${bad}`)).status, bad).toBe(400);
    }
    const unknown = await api.get('/api/v1/macro?series=NOPE');
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors[0].message).toContain('GDPX');
  });
});
