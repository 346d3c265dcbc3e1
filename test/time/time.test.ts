/**
 * Answers about time (SPEC §8) on both backends: the changes feed after a sequence of real loads,
 * a revision recorded when a reload changes one value, freshness and completeness recomputed here
 * from the other endpoints, and the demo's open filing season (`quarter_complete`, no record dated
 * after the day it was built).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { datasetVersion } from '../../src/db/dataset.js';
import { buildHoldingsDemo } from '../../src/demo/holdings/index.js';
import { DEFAULT_DEMO_SEED } from '../../src/demo/index.js';
import { quarterEnd } from '../../src/holdings/identifiers.js';
import { type Backend, type TestDatabase, testBackends } from '../helpers/backends.js';
import { type ApiUnderTest, openApi } from '../ingest/helpers/api.js';
import { ingestJson } from '../ingest/helpers/cli.js';

function page(dir: string, name: string, records: readonly object[]): string {
  const path = join(dir, name);
  writeFileSync(
    path,
    JSON.stringify({ meta: { total: records.length }, data: records.map((data) => ({ data })) }),
  );
  return path;
}

const BANKS = Array.from({ length: 10 }, (_, i) => ({
  CERT: 8001 + i,
  NAME: `Time Test Bank ${i}`,
  STALP: 'KS',
  BKCLASS: 'NM',
  // The last bank closed: it reported at the first date and is no longer expected.
  ACTIVE: i === 9 ? 0 : 1,
}));

const report = (cert: number, date: string, assets: number) => ({
  CERT: cert,
  REPDTE: date,
  ASSET: assets,
  DEP: assets / 2,
});

const today = () => new Date().toISOString().slice(0, 10);
const daysSince = (date: string) => Math.round((Date.parse(today()) - Date.parse(date)) / 86_400_000);

describe.each(testBackends())('time on $name', (backend: Backend) => {
  let database: TestDatabase;
  let api: ApiUnderTest;
  let env: Record<string, string>;
  let dir: string;

  beforeAll(async () => {
    database = await backend.create();
    env = { DATABASE_URL: database.url };
    dir = mkdtempSync(join(tmpdir(), 'regdata-time-'));
    api = await openApi(database);
  });
  afterAll(async () => {
    await api?.close();
    await database?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  /** The API learns of a new dataset version by NOTIFY (PostgreSQL), a moment after the commit. */
  async function caughtUp() {
    const version = await datasetVersion(database.writer.db);
    for (let waited = 0; api.app.datasetVersion() !== version && waited < 5_000; waited += 20)
      await new Promise((resolve) => setTimeout(resolve, 20));
    expect(api.app.datasetVersion()).toBe(version);
  }

  const load = async (source: string, file: string) => {
    const result = await ingestJson([source, '--from', file], env);
    expect(result.code, result.stderr).toBe(0);
    return result.summary.dataset_version as number;
  };

  // Every bank at the first date; all but two active ones at the second (the season is open).
  const first = BANKS.map((b) => report(b.CERT, '20240331', 100_000 + b.CERT));
  const second = BANKS.slice(0, 7).map((b) => report(b.CERT, '20240630', 110_000 + b.CERT));
  let versions: number[] = [];

  it('lists every load after a version, in order, with its scope and counts', {
    timeout: 120_000,
  }, async () => {
    versions = [
      await load('fdic-institutions', page(dir, 'banks.json', BANKS)),
      await load('fdic-financials', page(dir, 'fin.json', [...first, ...second])),
    ];
    const all = await api.get('/api/changes');
    expect(all.status).toBe(200);
    expect(all.body.latest_version).toBe(versions[1]);
    expect(all.body.data).toMatchObject([
      {
        version: versions[0],
        source: 'fdic-institutions',
        demo: false,
        inserted: 10,
        updated: 0,
        removed: 0,
        scope: [{ table: 'institutions', replaces: 'all', values: null, more: 0 }],
      },
      {
        version: versions[1],
        source: 'fdic-financials',
        inserted: 17,
        updated: 0,
        removed: 0,
        scope: [
          { table: 'financials', replaces: 'report_date', values: ['2024-03-31', '2024-06-30'], more: 0 },
        ],
      },
    ]);
    const since = await api.get(`/api/v1/changes?since=${versions[0]}`);
    expect(since.body.data.map((c: { source: string }) => c.source)).toEqual(['fdic-financials']);
    expect((await api.get(`/api/changes?since=${versions[1]}`)).body.data).toEqual([]);
  });

  it('records a revision when a reload changes one value, and lists only that load after', {
    timeout: 120_000,
  }, async () => {
    const revised = second.map((r) => (r.CERT === 8003 ? { ...r, ASSET: 123_456 } : r));
    const version = await load('fdic-financials', page(dir, 'fin2.json', revised));
    const { body } = await api.get('/api/v1/financials/revisions?cert=8003');
    expect(body).toMatchObject({ total: 1, limit: 100, offset: 0 });
    expect(body.data).toEqual([
      expect.objectContaining({
        cert: 8003,
        report_date: '2024-06-30',
        field: 'total_assets',
        old: 110_000 + 8003,
        new: 123_456,
        source: 'fdic-financials',
        dataset_version: version,
      }),
    ]);
    const after = await api.get(`/api/changes?since=${versions[1]}`);
    expect(after.body.data).toMatchObject([
      {
        version,
        source: 'fdic-financials',
        inserted: 0,
        updated: 7,
        removed: 0,
        scope: [{ table: 'financials', replaces: 'report_date', values: ['2024-06-30'] }],
      },
    ]);
    expect(
      (await api.get('/api/v1/financials/revisions?field=total_assets&date=2024-03-31')).body.total,
    ).toBe(0);
  });

  it('measures call-report completeness as the other endpoints count it', async () => {
    await caughtUp();
    const { status, body } = await api.get('/api/freshness');
    expect(status).toBe(200);
    const entry = body.sources.find((s: { source: string }) => s.source === 'fdic-financials');
    const atLatest = (await api.get('/api/v1/financials?date=2024-06-30&limit=500')).body;
    const atPrevious = (await api.get('/api/v1/financials?date=2024-03-31&limit=500')).body.data as {
      cert: number;
    }[];
    const active = new Set(
      ((await api.get('/api/v1/banks?active=true&limit=500')).body.data as { cert: number }[]).map(
        (b) => b.cert,
      ),
    );
    const expected = atPrevious.filter((r) => active.has(r.cert)).length;
    expect(entry.completeness).toEqual({
      period: '2024-06-30',
      reported: atLatest.total,
      expected,
      share: Math.round((atLatest.total / expected) * 10_000) / 10_000,
    });
    expect(entry.latest_period).toBe('2024-06-30');
    // 7 of 9: below 0.98, but the report date ended long ago.
    expect(entry.complete).toBe(daysSince('2024-06-30') > 100);
    expect(entry.loaded_at).toEqual(expect.any(String));
    const v1 = await api.get('/api/v1/freshness');
    expect(v1.body.sources.map((s: { source: string }) => s.source)).toEqual(
      body.sources.map((s: { source: string }) => s.source),
    );
  });

  it('answers a bad since with 400', async () => {
    for (const since of ['abc', '-1', '1.5', '99999999999']) {
      const { status, body } = await api.get(`/api/changes?since=${since}`);
      expect(status, since).toBe(400);
      expect(body.errors?.[0]?.param ?? body.detail, since).toMatch(/since/);
    }
    expect((await api.get('/api/v1/financials/revisions?field=total_asets')).status).toBe(400);
    expect((await api.get('/api/v1/financials/revisions?date=2024-02-30')).status).toBe(400);
  });

  it('the demo’s last filing season is open: incomplete, nothing filed after today', {
    timeout: 120_000,
  }, async () => {
    await buildHoldingsDemo(database.writer, { seed: DEFAULT_DEMO_SEED, scale: 'small' });
    await caughtUp();
    const latest = await database.writer.db
      .selectFrom('filings_13f')
      .select((eb) => eb.fn.max('filing_date').as('d'))
      .executeTakeFirstOrThrow();
    expect(String(latest.d) <= today()).toBe(true);
    const { body } = await api.get('/api/freshness');
    const entry = body.sources.find((s: { source: string }) => s.source === 'sec-13f');
    const progress = (await api.get('/api/filing-progress')).body;
    expect(entry.latest_period).toBe(progress.quarter);
    expect(entry.completeness).toMatchObject({
      reported: progress.filed.managers,
      expected: progress.previous_filers,
    });
    const share = progress.filed.managers / progress.previous_filers;
    expect(share).toBeLessThan(0.98);
    const complete = daysSince(quarterEnd(progress.quarter)) > 75;
    expect(entry.complete).toBe(complete);
    expect((await api.get('/api/smart-money')).body.quarter_complete).toBe(complete);
    const manager = (await api.get(`/api/holdings?quarter=${progress.quarter}&limit=1`)).body.data[0];
    const changes = (await api.get(`/api/holdings/${manager.cik}/changes`)).body;
    expect(changes.quarter_complete).toBe(changes.quarter === progress.quarter ? complete : true);
    // The previous quarter's season is over: its share or its age says so.
    const demo = (await api.get('/api/changes')).body.data.filter((c: { demo: boolean }) => c.demo);
    expect(demo.map((c: { source: string }) => c.source).sort()).toEqual([
      'sec-13f',
      'sec-advisers',
      'sec-registrants',
      'sec-securities',
    ]);
  });
});
