/**
 * The real SEC files in ../shared/realdata load through the CLI and answer through the API with the
 * files' own numbers (skipped with a message when ../shared is absent; REQUIRE_SHARED=1 fails).
 */
import { readFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Backend, type TestDatabase, testBackends } from '../helpers/backends.js';
import { type ApiUnderTest, openApi } from './helpers/api.js';
import { ingestJson } from './helpers/cli.js';
import { realdata, sharedAvailable } from './sec-shared.js';

type Row = Record<string, unknown>;

const ADV = 'sec_adv/sec_registered_advisers_2026-02.csv';
// biome-ignore format: one file per line
const FILINGS = [
  // file, CIK, quarter, summary entries, summary value, value unit of the filing
  ['13F-HR_0001951757-25-000093_nc.txt', '0001994827', '2024-Q4', 77, 194_611_845, 'dollars'],
  ['13F-HR_full_submission_0000007195-21-000001.txt', '0000007195', '2020-Q4', 73, 228_040, 'thousands'],
  ['13F-HR_full_submission_0001894188-23-000007.txt', '0001894188', '2023-Q3', 14, 454_926_000, 'dollars'],
] as const;
const BARE_TABLES = ['13F-HR_infotable_255holdings.xml', 'SEC_official_sample_information_table.xml'];
const PRIMARY_ONLY = ['13F-HR_primarydoc_abacus_2020Q4.xml', '13F-HR_primarydoc_metlife_2021Q4.xml'];
const available = sharedAvailable([
  ADV,
  ...[...FILINGS.map((f) => f[0]), ...BARE_TABLES, ...PRIMARY_ONLY].map((f) => `sec_13f/${f}`),
]);

describe.skipIf(!available).each(testBackends())('real SEC files load on $name', (backend: Backend) => {
  let database: TestDatabase;
  let api: ApiUnderTest;
  const ingest = (...args: string[]) => ingestJson(args, { DATABASE_URL: database.url });

  beforeAll(async () => {
    database = await backend.create();
    api = await openApi(database);
  });
  afterAll(async () => {
    await api?.close();
    await database?.drop();
  });

  it.each(FILINGS)(
    '%s: holdings count and value total equal its summary page',
    async (file, cik, quarter, entries, total, unit) => {
      const { code, summary, stderr } = await ingest('sec-13f-filing', '--from', realdata(`sec_13f/${file}`));
      expect(code, stderr).toBe(0);
      expect(summary.rejected).toBe(0);
      // Every row read (the filing itself counts one) was stored: none rejected or skipped.
      expect(summary.read - 1).toBe(entries);
      expect(summary.skipped).toEqual({});
      expect(summary.tables.find((t: Row) => t.table === 'info_tables_13f').staged).toBe(1);
      const portfolio = (await api.get(`/api/holdings/${cik}?quarter=${quarter}`)).body;
      const expected = unit === 'dollars' ? total / 1000 : total;
      // A thousands filing rounds each row, so its own total may differ by half a unit per row
      // (Argus 2020Q4: rows 228,038 vs summary 228,040); dollar filings match exactly.
      const tolerance = unit === 'dollars' ? 1e-6 : entries / 2;
      expect(Math.abs(portfolio.total_value - expected)).toBeLessThanOrEqual(tolerance);
      expect(portfolio.holdings.length).toBe(portfolio.position_count);
    },
  );

  it.each(BARE_TABLES)(
    'bare information table %s loads with the identity given on the command line',
    async (file) => {
      const text = readFileSync(realdata(`sec_13f/${file}`), 'utf8');
      const values = [...text.matchAll(/<(?:\w+:)?value>\s*(\d+)\s*</g)].map((m) => Number(m[1]));
      const cik = file.startsWith('SEC') ? '9000001' : '9000002';
      // biome-ignore format: flags
      const { code, summary, stderr } = await ingest('sec-13f-filing', '--from', realdata(`sec_13f/${file}`),
      '--accession', `000${cik}-24-000001`, '--cik', cik, '--period', '2024-03-31', '--filed', '2024-05-15');
      expect(code, stderr).toBe(0);
      expect(summary.read - 1).toBe(values.length);
      expect(summary.rejected).toBe(0);
      // The only thing skipped is the missing cover page (a filing-level note), never a row.
      expect(Object.keys(summary.skipped)).toEqual([
        'filing without a cover page (bare information table): manager named by its CIK',
      ]);
      const portfolio = (await api.get(`/api/holdings/${cik}?quarter=2024-Q1`)).body;
      expect(portfolio.total_value).toBeCloseTo(values.reduce((a, b) => a + b, 0) / 1000, 3);
    },
  );

  it.each(PRIMARY_ONLY)('%s alone is refused: its information table is not in the file', async (file) => {
    const { code, summary } = await ingest(
      'sec-13f-filing',
      '--from',
      realdata(`sec_13f/${file}`),
      '--accession',
      '0000000001-23-000001',
    );
    expect(code).not.toBe(0);
    expect(summary.error).toMatch(/no information table was given/);
  });

  it('the ADV file loads 16,475 advisers; AUM total equals the file; /api/advisers sorts and filters', async () => {
    const { code, summary, stderr } = await ingest('sec-advisers', '--from', realdata(ADV));
    expect(code, stderr).toBe(0);
    expect(summary).toMatchObject({ ok: true, read: 16_475, rejected: 0, inserted: 16_475 });
    const file = parse(readFileSync(realdata(ADV)), { columns: true }) as Record<string, string>[];
    const amount = (row: Record<string, string>) =>
      Number((row['5F(2)(c)'] ?? '').replace(/[,\s]/g, '') || 'NaN');
    const fileAum = file.reduce((sum, row) => sum + (Number.isNaN(amount(row)) ? 0 : amount(row)), 0);
    let apiAum = 0;
    let count = 0;
    for (let offset = 0; ; offset += 200) {
      const page = (await api.get(`/api/advisers?limit=200&offset=${offset}`)).body;
      expect(page.total).toBe(16_475);
      for (const adviser of page.data) apiAum += adviser.aum ?? 0;
      count += page.data.length;
      if (page.data.length < 200) break;
    }
    expect(count).toBe(16_475);
    expect(apiAum).toBeCloseTo(fileAum, -2);

    const top = (await api.get('/api/advisers?limit=3')).body.data;
    const fileTop = [...file].sort((a, b) => (amount(b) || 0) - (amount(a) || 0)).slice(0, 3);
    expect(top.map((a: Row) => a.crd)).toEqual(fileTop.map((r) => Number(r['Organization CRD#'])));
    const ny = file.filter((r) => r['Main Office State'] === 'NY').length;
    expect((await api.get('/api/advisers?state=ny&limit=1')).body.total).toBe(ny);
    const billion = file.filter((r) => amount(r) >= 1e9).length;
    expect((await api.get('/api/advisers?aum_min=1e9&limit=1')).body.total).toBe(billion);
    const byName = (await api.get('/api/advisers?sort=name&order=asc&limit=200')).body.data.map((a: Row) =>
      String(a.name).toLowerCase(),
    );
    expect(byName).toEqual([...byName].sort((a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)));
    const employees = (await api.get('/api/advisers?sort=employees&limit=1')).body.data[0].employees;
    expect(employees).toBe(Math.max(...file.map((r) => Number(r['5A']) || 0)));
    const jpm = (await api.get('/api/advisers/79')).body;
    expect(jpm).toMatchObject({
      name: 'J.P. MORGAN SECURITIES LLC',
      state: 'NY',
      aum: 352_605_441_286,
      employees: 8327,
      clients: 380_710,
    });
  }, 180_000);

  it('links an adviser to its 13F filer by the cover page CRD number, in either load order', async () => {
    // 0001894188-23-000007's cover page: CRDNUMBER 000317572, SARAZA MANAGEMENT LP in the ADV file.
    // The filing was loaded before the ADV file (earlier test): the advisers load linked it.
    const saraza = (await api.get('/api/advisers/317572')).body;
    expect(saraza).toMatchObject({ name: 'SARAZA MANAGEMENT LP', cik: '0001894188' });
    // Loaded again after the advisers, the filing links it too (the derivation runs the link).
    const file = '13F-HR_full_submission_0001894188-23-000007.txt';
    expect((await ingest('sec-13f-filing', '--from', realdata(`sec_13f/${file}`))).code).toBe(0);
    expect((await api.get('/api/advisers/317572')).body.cik).toBe('0001894188');
    // An adviser no cover page names keeps a null CIK.
    expect((await api.get('/api/advisers/79')).body.cik).toBeNull();
  });
});
