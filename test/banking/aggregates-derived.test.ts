/**
 * /api/v1/aggregates is read from statistics derived at load time: every load that changes the
 * rows they depend on rebuilds them in its own transaction. Checked against statistics computed
 * here from the records loaded (and, for the demo, from the stored rows) after each step: the demo,
 * real loads replacing it, an institutions load moving a bank to another state, a financials load
 * of one report date, and the backfill of a database whose aggregates are missing. Every check is
 * made twice: through the read indexes the API keeps of each field's industry rows (the default),
 * and with them off (READ_INDEX_MAX_BYTES=0: every answer read from the database).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateToLatest } from '../../src/db/migrate.js';
import { buildBankingDemoWith } from '../../src/demo/banking/index.js';
import { DEFAULT_DEMO_SEED } from '../../src/demo/index.js';
import { type Backend, type TestDatabase, testBackends } from '../helpers/backends.js';
import { type ApiUnderTest, openApi } from '../ingest/helpers/api.js';
import { ingestJson } from '../ingest/helpers/cli.js';

type Bank = { CERT: number; NAME: string; STALP: string | null; BKCLASS: string; ACTIVE: 1; ID: string };
type Report = {
  CERT: number;
  REPDTE: string;
  ASSET: number;
  DEP: number;
  NETINC: number | null;
  ROA: number | null;
};

const DATES = ['20240331', '20240630'];
const STATES = ['KS', 'KS', 'KS', 'MO', 'MO', 'MO', null, 'NE'];

function banks(states: readonly (string | null)[]): Bank[] {
  return states.map((state, i) => ({
    CERT: 7001 + i,
    NAME: `Aggregate Test Bank ${i}`,
    STALP: state,
    BKCLASS: i % 2 ? 'N' : 'SM',
    ACTIVE: 1,
    ID: String(7001 + i),
  }));
}

/** Assets spread over three size bands; a missing NETINC and ROA for one bank. */
function reports(date: string, bump = 0): Report[] {
  return STATES.map((_, i) => ({
    CERT: 7001 + i,
    REPDTE: date,
    ASSET: [50_000, 120_000, 250_000, 400_000, 2_500_000, 90_000, 700_000, 180_000][i]! + bump * (i + 1),
    DEP: 40_000 + 1_000 * i,
    NETINC: i === 3 ? null : 100 * (i + 1) + bump,
    ROA: i === 3 ? null : 0.25 * i + (date === DATES[1] ? 0.1 : 0),
  }));
}

function page(dir: string, name: string, records: readonly object[]): string {
  const path = join(dir, name);
  writeFileSync(
    path,
    JSON.stringify({ meta: { total: records.length }, data: records.map((data) => ({ data })) }),
  );
  return path;
}

/** numpy's default quantile: linear between closest ranks. */
function quantile(sorted: number[], q: number): number {
  const h = (sorted.length - 1) * q;
  const lo = Math.floor(h);
  return sorted[lo]! + (h - lo) * (sorted[Math.min(lo + 1, sorted.length - 1)]! - sorted[lo]!);
}

const FIELDS = { total_assets: 'ASSET', net_income: 'NETINC', roa: 'ROA' } as const;
const METRICS = Object.keys(FIELDS).join(',');
const AMOUNTS = new Set(['total_assets', 'net_income']);
const band = (assets: number) =>
  assets < 100_000 ? 'lt100m' : assets < 300_000 ? '100m-300m' : assets < 1_000_000 ? '300m-1b' : '1b-3b';

function stats(field: string, values: number[]) {
  const sorted = values.sort((a, b) => a - b);
  const n = sorted.length;
  const sum = sorted.reduce((a, b) => a + b, 0);
  if (AMOUNTS.has(field))
    return n === 0
      ? { count: 0, sum: null, median: null, mean: null }
      : { count: n, sum, median: quantile(sorted, 0.5), mean: sum / n };
  return n === 0
    ? { count: 0, median: null, mean: null, p25: null, p75: null }
    : {
        count: n,
        median: quantile(sorted, 0.5),
        mean: sum / n,
        p25: quantile(sorted, 0.25),
        p75: quantile(sorted, 0.75),
      };
}

/** The answer computed from the records: per date and group, sorted as the API sorts. */
function expected(records: readonly Report[], bankList: readonly Bank[], groupBy: string) {
  const stateOf = new Map(bankList.map((b) => [b.CERT, b.STALP]));
  const classOf = new Map(bankList.map((b) => [b.CERT, b.BKCLASS]));
  const groupOf = (r: Report) =>
    groupBy === 'none'
      ? null
      : groupBy === 'state'
        ? (stateOf.get(r.CERT) ?? 'unknown')
        : groupBy === 'charter_class'
          ? classOf.get(r.CERT)!
          : band(r.ASSET);
  const groups = new Map<string, Report[]>();
  for (const r of records) {
    const key = `${r.REPDTE}|${groupOf(r) ?? ''}`;
    groups.set(key, [...(groups.get(key) ?? []), r]);
  }
  return [...groups.entries()]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([key, rows]) => ({
      report_date: `${key.slice(0, 4)}-${key.slice(4, 6)}-${key.slice(6, 8)}`,
      group: groupBy === 'none' ? null : key.split('|')[1],
      institutions: rows.length,
      metrics: Object.fromEntries(
        Object.entries(FIELDS).map(([field, column]) => [
          field,
          stats(
            field,
            rows.map((r) => r[column]).filter((v): v is number => v !== null),
          ),
        ]),
      ),
    }));
}

describe.each(testBackends())('aggregates derived at load time on $name', (backend: Backend) => {
  let database: TestDatabase;
  let api: ApiUnderTest;
  /** The same API with the read indexes off. */
  let plain: ApiUnderTest;
  let env: Record<string, string>;
  let dir: string;

  beforeAll(async () => {
    database = await backend.create();
    env = { DATABASE_URL: database.url };
    dir = mkdtempSync(join(tmpdir(), 'regdata-aggregates-'));
    // Fewer banks than the small demo: the statistics are checked against whatever rows are stored.
    await buildBankingDemoWith(
      database.writer,
      { seed: DEFAULT_DEMO_SEED, scale: 'small' },
      { active: 300, inactive: 60 },
    );
    api = await openApi(database);
    plain = await openApi(database, { readIndexMaxBytes: 0 });
  }, 180_000);
  afterAll(async () => {
    await api?.close();
    await plain?.close();
    await database?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  const window = (on: ApiUnderTest, groupBy: string) =>
    on.get(`/api/v1/aggregates?start=1900-01-01&end=2100-12-31&group_by=${groupBy}&metrics=${METRICS}`);

  async function expectAll(records: readonly Report[], bankList: readonly Bank[]) {
    for (const groupBy of ['none', 'state', 'charter_class', 'size_band']) {
      const all = expected(records, bankList, groupBy);
      // One report date: the first, so each index holds later rows the slice must leave out.
      const date = all[0]?.report_date as string;
      for (const [name, on] of [
        ['indexed', api],
        ['plain', plain],
      ] as const) {
        const { status, body } = await window(on, groupBy);
        expect(status).toBe(200);
        expect(body.data, `${groupBy}, ${name}`).toEqual(all);
        const one = await on.get(`/api/v1/aggregates?date=${date}&group_by=${groupBy}&metrics=${METRICS}`);
        expect(one.body.data, `${groupBy} on ${date}, ${name}`).toEqual(
          all.filter((row) => row.report_date === date),
        );
        // CSV of the same window: one line per date and group (the JSON is written by JSON.stringify).
        const csv = await on.app.inject({
          method: 'GET',
          url: `/api/v1/aggregates?start=1900-01-01&group_by=${groupBy}&metrics=${METRICS}&format=csv`,
        });
        expect(csv.headers['content-type'], `${groupBy} csv, ${name}`).toBe('text/csv; charset=utf-8');
        expect(csv.body.trim().split('\n').length - 1, `${groupBy} csv, ${name}`).toBe(all.length);
        // The columns CSV readers take by position: an amount's sum second, as it always was.
        const header = (csv.body.split('\n')[0] as string).split(',').filter((c) => c.startsWith('metrics.'));
        expect(header, `${groupBy} csv header, ${name}`).toEqual(
          Object.keys(FIELDS).flatMap((field) =>
            (AMOUNTS.has(field)
              ? ['count', 'sum', 'median', 'mean']
              : ['count', 'median', 'mean', 'p25', 'p75']
            ).map((stat) => `metrics.${field}.${stat}`),
          ),
        );
      }
    }
  }

  it('serves the demo’s statistics, equal to sums and counts of its stored rows', async () => {
    const { body } = await api.get('/api/v1/aggregates?group_by=none&metrics=total_assets');
    const [latest] = body.data;
    const stored = await database.writer.db
      .selectFrom('financials')
      .select(['total_assets'])
      .where('report_date', '=', latest.report_date)
      .execute();
    const assets = stored.map((r) => r.total_assets).filter((v): v is number => v !== null);
    expect(latest.institutions).toBe(stored.length);
    expect(latest.metrics.total_assets.count).toBe(assets.length);
    expect(latest.metrics.total_assets.sum).toBeCloseTo(
      assets.reduce((a, b) => a + b, 0),
      0,
    );
  });

  let current: Report[] = [];
  let bankList = banks(STATES);

  it('real loads replacing the demo leave only their own report dates', { timeout: 120_000 }, async () => {
    const institutions = await ingestJson(
      ['fdic-institutions', '--from', page(dir, 'banks.json', bankList)],
      env,
    );
    expect(institutions.code, institutions.stderr).toBe(0);
    current = DATES.flatMap((d) => reports(d));
    const financials = await ingestJson(['fdic-financials', '--from', page(dir, 'fin.json', current)], env);
    expect(financials.code, financials.stderr).toBe(0);
    await expectAll(current, bankList);
  });

  it('an institutions load regroups every report date', { timeout: 120_000 }, async () => {
    bankList = banks(['MO', ...STATES.slice(1)]);
    const { code, stderr } = await ingestJson(
      ['fdic-institutions', '--from', page(dir, 'banks2.json', bankList)],
      env,
    );
    expect(code, stderr).toBe(0);
    await expectAll(current, bankList);
  });

  it('a financials load rebuilds the report date it holds and keeps the others', {
    timeout: 120_000,
  }, async () => {
    const second = reports(DATES[1]!, 5_000);
    const { code, stderr } = await ingestJson(
      ['fdic-financials', '--from', page(dir, 'fin2.json', second)],
      env,
    );
    expect(code, stderr).toBe(0);
    current = [...reports(DATES[0]!), ...second];
    await expectAll(current, bankList);
  });

  it('a database whose aggregates are missing gets them back when migrated', async () => {
    await database.writer.db.deleteFrom('financial_aggregates').execute();
    await migrateToLatest(database.writer);
    await expectAll(current, bankList);
  });
});
