/**
 * The real FDIC files in ../shared/realdata, loaded by the CLI and read back through the API:
 * every count and value is computed from the file itself by this test.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Backend, type TestDatabase, testBackends } from '../helpers/backends.js';
import { type ApiUnderTest, openApi } from './helpers/api.js';
import { ingestJson } from './helpers/cli.js';
import { countBy, readCsv, realdata, sharedAvailable } from './helpers/shared.js';

const FAILURES = 'fdic_failures/fdic_failures_bankfind_1934_2026.csv';
const INSTITUTIONS = 'fdic_institutions/fdic_institutions_active_2026-01.csv';
const FINANCIALS = 'fdic_financials/fdic_financials_3qtrs_2023Q4_2024Q4_2025Q3.csv';
const available = sharedAvailable([FAILURES, INSTITUTIONS, FINANCIALS], 'FDIC real-data ingest tests');

const num = (value: string | undefined) => (value === undefined || value === '' ? null : Number(value));

async function allPages(api: ApiUnderTest, url: string, limit = 500) {
  // biome-ignore lint/suspicious/noExplicitAny: API records, compared field by field
  const rows: any[] = [];
  for (let offset = 0; ; offset += limit) {
    const { status, body } = await api.get(`${url}&limit=${limit}&offset=${offset}`);
    expect(status).toBe(200);
    rows.push(...body.data);
    if (body.data.length < limit) return rows;
  }
}

(available ? describe : describe.skip).each(testBackends())(
  'real FDIC files on $name',
  (backend: Backend) => {
    let database: TestDatabase;
    let api: ApiUnderTest;
    let env: Record<string, string>;

    beforeAll(async () => {
      database = await backend.create();
      api = await openApi(database);
      env = { DATABASE_URL: database.url };
    });
    afterAll(async () => {
      await api?.close();
      await database?.drop();
    });

    it('failures: total 4114, per-state and per-year totals equal the file', {
      timeout: 120_000,
    }, async () => {
      const { code, summary, stderr } = await ingestJson(
        ['fdic-failures', '--from', realdata(FAILURES)],
        env,
      );
      expect(code, stderr).toBe(0);
      const rows = readCsv(FAILURES);
      expect(summary).toMatchObject({ ok: true, read: rows.length, inserted: rows.length, rejected: 0 });
      expect((await api.get('/api/v1/failures')).body.total).toBe(4114);
      expect(rows.length).toBe(4114);
      for (const [state, n] of countBy(rows, (r) => r.PSTALP!)) {
        expect((await api.get(`/api/v1/failures?state=${state}&limit=1`)).body.total, state).toBe(n);
      }
      const byYear = countBy(rows, (r) => r.FAILDATE!.split('/')[2]!);
      for (const [year, n] of byYear) {
        expect((await api.get(`/api/v1/failures?year=${year}&limit=1`)).body.total, year).toBe(n);
      }
      const svb = rows.find((r) => r.NAME === 'SILICON VALLEY BANK')!;
      const served = (await api.get(`/api/v1/failures?state=CA&year=2023`)).body.data.find(
        (f: { cert: number }) => f.cert === Number(svb.CERT),
      );
      expect(served).toMatchObject({
        closing_date: '2023-03-10',
        acquiring_institution: svb.BIDNAME,
        total_assets: num(svb.QBFASSET),
        total_deposits: num(svb.QBFDEP),
        estimated_loss: num(svb.COST),
      });
    });

    it('institutions: every row of the file is served with its values', { timeout: 120_000 }, async () => {
      const { code, summary, stderr } = await ingestJson(
        ['fdic-institutions', '--from', realdata(INSTITUTIONS)],
        env,
      );
      expect(code, stderr).toBe(0);
      const rows = readCsv(INSTITUTIONS);
      expect(summary).toMatchObject({ ok: true, read: rows.length, inserted: rows.length, rejected: 0 });
      const served = new Map(
        (await allPages(api, '/api/v1/banks?active=all&sortBy=name&sortDir=asc')).map((b) => [b.cert, b]),
      );
      // cert 0 (an uninsured branch) is stored but the API accepts only positive certificate numbers.
      const insured = rows.filter((r) => r.CERT !== '0');
      expect(served.size).toBeGreaterThanOrEqual(insured.length);
      for (const row of insured) {
        const bank = served.get(Number(row.CERT));
        expect(bank, row.CERT).toBeDefined();
        expect(bank).toMatchObject({
          name: row.NAME,
          city: row.CITY,
          charter_class: row.BKCLASS,
          asset_size: num(row.ASSET),
        });
      }
      const ergo = served.get(10004);
      expect(ergo.state).toBe('WI');
    });

    it('financials: every (cert, report date) of a served institution equals the file', {
      timeout: 180_000,
    }, async () => {
      const { code, summary, stderr } = await ingestJson(
        ['fdic-financials', '--from', realdata(FINANCIALS)],
        env,
      );
      expect(code, stderr).toBe(0);
      const rows = readCsv(FINANCIALS);
      expect(summary).toMatchObject({ ok: true, read: rows.length, inserted: rows.length, rejected: 0 });
      const stored = await database.writer.db
        .selectFrom('financials')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      expect(Number(stored.n)).toBe(rows.length);
      const institutions = new Set(readCsv(INSTITUTIONS).map((r) => Number(r.CERT)));
      for (const reportDate of ['20231231', '20241231', '20250930']) {
        const iso = `${reportDate.slice(0, 4)}-${reportDate.slice(4, 6)}-${reportDate.slice(6)}`;
        const served = new Map(
          (await allPages(api, `/api/v1/financials?date=${iso}`)).map((f) => [f.cert, f]),
        );
        // The API serves financials of known institutions; the file's others are stored, not served.
        const expected = rows.filter((r) => r.REPDTE === reportDate && institutions.has(Number(r.CERT)));
        expect(served.size).toBe(expected.length);
        for (const row of expected) {
          expect(served.get(Number(row.CERT)), `${row.CERT} ${iso}`).toMatchObject({
            report_date: iso,
            total_assets: num(row.ASSET),
            total_deposits: num(row.DEP),
            roa: num(row.ROA),
            roe: num(row.ROE),
            loan_to_deposit: num(row.LNLSDEPR),
          });
        }
      }
    });
  },
);
