/**
 * /api/v1/peers and /api/v1/aggregates on real FDIC rows (../shared/realdata: ~4,500 banks at three report dates), loaded
 * by the CLI; every statistic is computed here, independently, from the file's own rows (SPEC §5:
 * quantiles by linear interpolation, rank, midpoint percentile, 5–95 % trimmed mean, size bands).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Backend, type TestDatabase, testBackends } from '../helpers/backends.js';
import { type ApiUnderTest, openApi } from '../ingest/helpers/api.js';
import { ingestJson } from '../ingest/helpers/cli.js';
import { readCsv, realdata, sharedAvailable } from '../ingest/helpers/shared.js';

const INSTITUTIONS = 'fdic_institutions/fdic_institutions_active_2026-01.csv';
const FINANCIALS = 'fdic_financials/fdic_financials_3qtrs_2023Q4_2024Q4_2025Q3.csv';
const available = sharedAvailable([INSTITUTIONS, FINANCIALS], 'peers real-data tests');

/** Catalogue field → the file's column. */
const COLUMNS: Record<string, string> = {
  total_assets: 'ASSET',
  total_deposits: 'DEP',
  net_income: 'NETINC',
  roa: 'ROA',
  roe: 'ROE',
  loan_to_deposit: 'LNLSDEPR',
};
const METRICS = Object.keys(COLUMNS);
const BAND_LIMITS = [100_000, 300_000, 1_000_000, 3_000_000, 10_000_000, 100_000_000];

interface Row {
  cert: number;
  date: string;
  values: Record<string, number | null>;
}

function fileRows(): Row[] {
  return readCsv(FINANCIALS).map((raw) => ({
    cert: Number(raw.CERT),
    date: `${raw.REPDTE!.slice(0, 4)}-${raw.REPDTE!.slice(4, 6)}-${raw.REPDTE!.slice(6, 8)}`,
    values: Object.fromEntries(
      METRICS.map((m) => [m, raw[COLUMNS[m]!] === '' ? null : Number(raw[COLUMNS[m]!])]),
    ),
  }));
}

const band = (assets: number | null) =>
  assets === null ? null : BAND_LIMITS.filter((l) => assets >= l).length;

/** numpy's default percentile: linear between closest ranks. */
function pct(sorted: number[], p: number): number {
  const h = (sorted.length - 1) * p;
  const lo = Math.floor(h);
  return sorted[lo]! + (h - lo) * ((sorted[Math.min(lo + 1, sorted.length - 1)] ?? 0) - sorted[lo]!);
}

function expected(values: number[], value: number | null) {
  const sorted = [...values].sort((a, b) => a - b);
  const n = sorted.length;
  const avg = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  const p5 = pct(sorted, 0.05);
  const p95 = pct(sorted, 0.95);
  const trimmed = sorted.filter((v) => v >= p5 && v <= p95);
  const below = value === null ? 0 : sorted.filter((v) => v < value).length;
  const equal = value === null ? 0 : sorted.filter((v) => v === value).length;
  return {
    value,
    rank: value === null ? null : 1 + sorted.filter((v) => v > value).length,
    percentile: value === null ? null : n === 1 ? 100 : (100 * (below + (equal - 1) / 2)) / (n - 1),
    peer_count: n,
    min: sorted[0],
    p5,
    p25: pct(sorted, 0.25),
    median: pct(sorted, 0.5),
    p75: pct(sorted, 0.75),
    p95,
    max: sorted[n - 1],
    mean: avg(sorted),
    // No value between p5 and p95 (exactly two distinct values): no trimmed mean.
    trimmed_mean: trimmed.length === 0 ? null : avg(trimmed),
  };
}

/** Every number equal to ~12 significant digits (sums of floats in another order). */
function expectClose(actual: Record<string, unknown>, wanted: Record<string, unknown>, label: string) {
  for (const [key, value] of Object.entries(wanted)) {
    if (typeof value === 'number') expect(actual[key] as number, `${label} ${key}`).toBeCloseTo(value, 6);
    else expect(actual[key], `${label} ${key}`).toEqual(value);
  }
}

(available ? describe : describe.skip).each(testBackends())(
  'peers on real FDIC rows on $name',
  (backend: Backend) => {
    let database: TestDatabase;
    let api: ApiUnderTest;
    const rows = available ? fileRows() : [];
    const states = new Map<number, string | null>();
    const charters = new Map<number, string | null>();

    beforeAll(async () => {
      database = await backend.create();
      const env = { DATABASE_URL: database.url };
      for (const [source, file] of [
        ['fdic-institutions', INSTITUTIONS],
        ['fdic-financials', FINANCIALS],
      ] as const) {
        const { code, stderr } = await ingestJson([source, '--from', realdata(file)], env);
        expect(code, stderr).toBe(0);
      }
      const institutions = await database.writer.db
        .selectFrom('institutions')
        .select(['cert', 'state', 'charter_class'])
        .execute();
      for (const i of institutions) {
        states.set(i.cert, i.state);
        charters.set(i.cert, i.charter_class);
      }
      api = await openApi(database);
    }, 300_000);
    afterAll(async () => {
      await api?.close();
      await database?.drop();
    });

    const dates = [...new Set(rows.map((r) => r.date))].sort();
    const subjects = [628, 3510, 10004, 57890, 33555];

    it('size, state, all and custom groups: every statistic of every metric', {
      timeout: 120_000,
    }, async () => {
      let checked = 0;
      for (const cert of subjects) {
        if (!states.has(cert)) continue;
        for (const date of [dates[0]!, dates.at(-1)!]) {
          const own = rows.find((r) => r.cert === cert && r.date === date);
          if (!own) continue;
          const custom = rows
            .filter((r) => r.date === date && r.cert % 7 === 0)
            .map((r) => r.cert)
            .slice(0, 300);
          const groups: [string, (r: Row) => boolean][] = [
            ['size', (r) => band(r.values.total_assets!) === band(own.values.total_assets!)],
            ['state', (r) => states.get(r.cert) === states.get(cert)],
            ['all', () => true],
            [`custom&certs=${custom.join(',')}`, (r) => r.cert === cert || custom.includes(r.cert)],
            // Tiny groups: the bank with one peer (two values: p5 and p95 between them), with two.
            ...[1, 2].map((n): [string, (r: Row) => boolean] => [
              `custom&certs=${custom.slice(0, n).join(',')}`,
              (r) => r.cert === cert || custom.slice(0, n).includes(r.cert),
            ]),
          ];
          for (const [group, member] of groups) {
            const url = `/api/v1/peers/${cert}?date=${date}&group=${group}&metrics=${METRICS.join(',')}`;
            const { status, body } = await api.get(url);
            expect(status, JSON.stringify(body)).toBe(200);
            const peers = rows.filter((r) => r.date === date && member(r));
            expect(body.group.count, group).toBe(peers.length);
            for (const metric of METRICS) {
              const values = peers.map((r) => r.values[metric]).filter((v): v is number => v !== null);
              expectClose(
                body.metrics[metric],
                expected(values, own.values[metric] ?? null),
                `${cert} ${date} ${group} ${metric}`,
              );
              checked++;
            }
          }
        }
      }
      expect(checked).toBeGreaterThan(50);
    });

    it('history re-derives the size band at every date', { timeout: 60_000 }, async () => {
      const cert = subjects.find(
        (c) => states.has(c) && rows.filter((r) => r.cert === c).length === dates.length,
      )!;
      const { status, body } = await api.get(`/api/v1/peers/${cert}/history?metric=roa`);
      expect(status).toBe(200);
      expect(body.map((e: { report_date: string }) => e.report_date)).toEqual(dates);
      for (const entry of body) {
        const own = rows.find((r) => r.cert === cert && r.date === entry.report_date)!;
        const values = rows
          .filter(
            (r) =>
              r.date === entry.report_date && band(r.values.total_assets!) === band(own.values.total_assets!),
          )
          .map((r) => r.values.roa)
          .filter((v): v is number => v !== null);
        const want = expected(values, own.values.roa ?? null);
        expectClose(
          entry,
          {
            value: want.value,
            rank: want.rank,
            percentile: want.percentile,
            peer_count: want.peer_count,
            median: want.median,
          },
          entry.report_date,
        );
      }
    });

    it('history of every metric in every kind of group, from the peer index and without it', {
      timeout: 120_000,
    }, async () => {
      const unindexed = await openApi(database, { readIndexMaxBytes: 0 });
      try {
        const assets = (r: Row) => r.values.total_assets ?? null;
        const sameBand = (own: Row, r: Row) => assets(r) !== null && band(assets(r)) === band(assets(own));
        const sameState = (own: Row, r: Row) => states.get(r.cert) === states.get(own.cert);
        const kinds: [string, (own: Row, r: Row) => boolean][] = [
          ['size', sameBand],
          ['state', sameState],
          ['charter', (own, r) => charters.get(r.cert) === charters.get(own.cert)],
          ['size_state', (own, r) => sameState(own, r) && sameBand(own, r)],
          ['all', () => true],
        ];
        let checked = 0;
        for (const cert of subjects.filter((c) => states.get(c) && charters.get(c))) {
          for (const metric of METRICS) {
            for (const [kind, member] of kinds) {
              const url = `/api/v1/peers/${cert}/history?metric=${metric}&group=${kind}`;
              const indexed = await api.app.inject({ method: 'GET', url });
              expect(indexed.statusCode, url).toBe(200);
              // The index writes the answer's text itself: byte for byte the schema serialiser's.
              expect(indexed.body, url).toBe((await unindexed.app.inject({ method: 'GET', url })).body);
              const csv = `${url}&format=csv`;
              expect((await api.app.inject({ method: 'GET', url: csv })).body, csv).toBe(
                (await unindexed.app.inject({ method: 'GET', url: csv })).body,
              );
              const body = JSON.parse(indexed.body);
              for (const entry of body) {
                const own = rows.find((r) => r.cert === cert && r.date === entry.report_date)!;
                const values = rows
                  .filter((r) => r.date === entry.report_date && member(own, r))
                  .map((r) => r.values[metric])
                  .filter((v): v is number => v !== null && v !== undefined);
                const want = expected(values, own.values[metric] ?? null);
                // biome-ignore format: the wanted entry
                expectClose(entry, { value: want.value, rank: values.length ? want.rank : null, percentile: values.length ? want.percentile : null, peer_count: want.peer_count, median: values.length ? want.median : null }, `${url} ${entry.report_date}`);
                checked++;
              }
            }
          }
        }
        expect(checked).toBeGreaterThan(200);
      } finally {
        await unindexed.close();
      }
    });

    it('aggregates: industry, by state and by size band, one date and the whole window', {
      timeout: 60_000,
    }, async () => {
      const BANDS = ['lt100m', '100m-300m', '300m-1b', '1b-3b', '3b-10b', '10b-100b', 'gte100b'];
      const groupings: [string, (r: Row) => string | null][] = [
        ['none', () => null],
        ['state', (r) => states.get(r.cert) ?? 'unknown'],
        [
          'size_band',
          (r) => (r.values.total_assets === null ? 'unknown' : BANDS[band(r.values.total_assets ?? null)!]!),
        ],
      ];
      for (const [groupBy, groupOf] of groupings) {
        for (const window of [`date=${dates.at(-1)}`, `start=${dates[0]}&end=${dates.at(-1)}`]) {
          const url = `/api/v1/aggregates?${window}&group_by=${groupBy}&metrics=total_assets,net_income,roa,roe`;
          const { status, body } = await api.get(url);
          expect(status, JSON.stringify(body)).toBe(200);
          const inWindow = window.startsWith('date') ? rows.filter((r) => r.date === dates.at(-1)) : rows;
          const keys = [...new Set(inWindow.map((r) => `${r.date}|${groupOf(r) ?? ''}`))].sort();
          expect(
            body.data.map(
              (e: { report_date: string; group: string | null }) => `${e.report_date}|${e.group ?? ''}`,
            ),
          ).toEqual(keys);
          for (const entry of body.data) {
            const members = inWindow.filter(
              (r) => r.date === entry.report_date && groupOf(r) === entry.group,
            );
            expect(entry.institutions).toBe(members.length);
            for (const metric of ['total_assets', 'net_income', 'roa', 'roe']) {
              const values = members.map((r) => r.values[metric]).filter((v): v is number => v !== null);
              const all = expected(values, null);
              const want =
                metric === 'roa' || metric === 'roe'
                  ? { count: values.length, median: all.median, mean: all.mean, p25: all.p25, p75: all.p75 }
                  : {
                      count: values.length,
                      sum: values.reduce((a, b) => a + b, 0),
                      median: all.median,
                      mean: all.mean,
                    };
              const actual = entry.metrics[metric];
              if (values.length === 0) expect(actual).toMatchObject({ count: 0, median: null, mean: null });
              else expectClose(actual, want, `${groupBy} ${entry.report_date} ${entry.group} ${metric}`);
            }
          }
        }
      }
    });

    it('bad input is a 400 naming each parameter; unknown cert or date a 404', async () => {
      const bad = await api.get('/api/v1/peers/628?metrics=roa,rooa&group=custom&date=2024-13-01');
      expect(bad.status).toBe(400);
      expect(bad.body.errors.map((e: { param: string }) => e.param).sort()).toEqual([
        'certs',
        'date',
        'metrics',
      ]);
      expect(bad.body.errors.find((e: { param: string }) => e.param === 'metrics').message).toMatch(
        /nearest: roa/,
      );
      expect((await api.get('/api/v1/peers/628?certs=1,2')).status).toBe(400);
      expect((await api.get('/api/v1/peers/628/history')).status).toBe(400);
      expect((await api.get('/api/v1/peers/999999999')).status).toBe(404);
      // The history of an unknown bank, answered from the peer index and without it.
      expect((await api.get('/api/v1/peers/999999999/history?metric=roa')).status).toBe(404);
      expect(
        (await api.get('/api/v1/peers/999999999/history?metric=roa&group=custom&certs=628')).status,
      ).toBe(404);
      expect((await api.get('/api/v1/peers/628?date=1990-01-01')).status).toBe(404);
      const aggregates = await api.get(
        '/api/v1/aggregates?date=2024-12-31&start=2024-01-01&group_by=county&metrics=x',
      );
      expect(aggregates.status).toBe(400);
      expect(aggregates.body.errors.map((e: { param: string }) => e.param).sort()).toEqual([
        'date',
        'group_by',
        'metrics',
      ]);
      expect((await api.get('/api/v1/aggregates?start=2025-01-01&end=2024-01-01')).status).toBe(400);
      expect((await api.get('/api/v1/aggregates?date=1990-01-01')).status).toBe(404);
      expect((await api.get('/api/v1/aggregates?start=1990-01-01&end=1990-12-31')).status).toBe(404);
    });
  },
);
