/**
 * `regdata ingest sec-13f` on data set ZIPs built in SEC's exact layout (yazl), checked through the
 * API: value unit by FILING_DATE, RESTATEMENT vs NEW HOLDINGS arriving in a later data set, 13F-NT,
 * SH/PRN, put/call, confidential placeholder rows, several rows per CUSIP, CIKs with leading zeros,
 * derived tables recomputed for the quarters a load touched, and idempotent re-runs.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DatasetFiling, writeFilingsZip } from '../../bench/sec-13f-dataset.js';
import { type Backend, type TestDatabase, testBackends } from '../helpers/backends.js';
import { type ApiUnderTest, openApi } from './helpers/api.js';
import { ingestJson } from './helpers/cli.js';
import { withDamagedData, withStatedSize } from './helpers/zip-damage.js';

type Row = Record<string, unknown>;

const AAPL = { cusip: '037833100', issuer: 'APPLE INC' };
const MSFT = { cusip: '594918104', issuer: 'MICROSOFT CORP' };
const NVDA = { cusip: '67066G104', issuer: 'NVIDIA CORPORATION' };
const BOND = { cusip: '037833AK6', issuer: 'APPLE INC', titleOfClass: 'NOTE 2.400% 5/03/2023' };

const base = { period: '2022-09-30', city: 'BOSTON', stateOrCountry: 'MA' };

/** Data set 1 (quarterly name, nested folder, no FIGI column): filed before 2023-01-03 → thousands. */
const dataset1: DatasetFiling[] = [
  {
    ...base,
    accession: '0000000101-22-000001',
    cik: '0000000101',
    formType: '13F-HR',
    filingDate: '2022-11-14',
    managerName: 'LEADING ZEROS CAPITAL',
    summary: { entryTotal: 5, valueTotal: 320 },
    rows: [
      { ...AAPL, value: 100, shares: 700, discretion: 'SOLE' },
      { ...AAPL, value: 50, shares: 300, discretion: 'DFND' },
      { ...AAPL, value: 20, shares: 150, putCall: 'Call' },
      { ...AAPL, value: 10, shares: 80, putCall: 'PUT' },
      { ...BOND, value: 140, shares: 150_000, shareType: 'PRN' },
    ],
  },
  {
    ...base,
    accession: '0000000202-22-000001',
    cik: '202',
    formType: '13F-NT',
    filingDate: '2022-11-10',
    managerName: 'NOTICE ONLY LLC',
    rows: [],
  },
  {
    ...base,
    accession: '0000000303-22-000001',
    cik: '303',
    formType: '13F-HR',
    filingDate: '2022-11-15',
    managerName: 'CONFIDENTIAL PARTNERS',
    summary: { entryTotal: 2, valueTotal: 90, confidentialOmitted: true },
    rows: [
      { cusip: '000000000', issuer: 'CONFIDENTIAL', value: 0, shares: 0 },
      { ...MSFT, value: 90, shares: 400 },
    ],
  },
  {
    accession: '0000000505-22-000001',
    cik: '505',
    formType: '13F-HR',
    filingDate: '2022-12-30',
    period: '2022-12-31',
    managerName: 'LAST THOUSANDS FILER',
    stateOrCountry: 'X0',
    summary: { entryTotal: 1, valueTotal: 1235 },
    rows: [{ ...AAPL, value: 1235, shares: 9000 }],
  },
];

/** Data set 2 (date-window name, FIGI column): filed from 2023-01-03 on → whole dollars. */
const dataset2: DatasetFiling[] = [
  {
    ...base,
    accession: '0000000101-23-000001',
    cik: '101',
    formType: '13F-HR/A',
    amendmentType: 'RESTATEMENT',
    filingDate: '2023-01-10',
    managerName: 'LEADING ZEROS CAPITAL (RESTATED)',
    summary: { entryTotal: 1, valueTotal: 175_000 },
    rows: [{ ...AAPL, value: 175_000, shares: 1100, figi: 'BBG000B9XRY4' }],
  },
  {
    ...base,
    accession: '0000000303-23-000001',
    cik: '0000000303',
    formType: '13F-HR/A',
    amendmentType: 'NEW HOLDINGS',
    filingDate: '2023-02-01',
    managerName: 'CONFIDENTIAL PARTNERS',
    summary: { entryTotal: 1, valueTotal: 30_000 },
    rows: [{ ...NVDA, value: 30_000, shares: 200 }],
  },
  {
    accession: '0000000404-23-000001',
    cik: '404',
    formType: '13F-HR',
    filingDate: '2023-01-03',
    period: '2022-12-31',
    managerName: 'FIRST DOLLARS FILER',
    stateOrCountry: 'NY',
    summary: { entryTotal: 1, valueTotal: 1_234_567 },
    rows: [{ ...AAPL, value: 1_234_567, shares: 9000 }],
  },
];

const dir = mkdtempSync(join(tmpdir(), 'regdata-sec13f-'));
const zip1 = join(dir, '2022q4_form13f.zip');
const zip2 = join(dir, '01jan2023-28feb2023_form13f.zip');
beforeAll(async () => {
  await writeFilingsZip(zip1, dataset1, { folder: '2022q4_form13f', figi: false });
  await writeFilingsZip(zip2, dataset2);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe.each(testBackends())('sec-13f data sets on $name', (backend: Backend) => {
  let database: TestDatabase;
  let api: ApiUnderTest;
  const ingest = (...args: string[]) => ingestJson(['sec-13f', ...args], { DATABASE_URL: database.url });
  const portfolio = async (cik: string, quarter: string) =>
    (await api.get(`/api/holdings/${cik}?quarter=${quarter}`)).body;

  beforeAll(async () => {
    database = await backend.create();
    api = await openApi(database);
  });
  afterAll(async () => {
    await api?.close();
    await database?.drop();
  });

  it('loads the first data set: thousands, rows summed per position, SH/PRN, put/call, placeholders', async () => {
    const { code, summary, stderr } = await ingest('--from', zip1);
    expect(code, stderr).toBe(0);
    expect(summary).toMatchObject({ ok: true, rejected: 0, read: 4 + 8 });
    expect(summary.skipped).toEqual({
      'confidential-treatment placeholder row (CUSIP 000000000, value 0)': 1,
    });
    const m1 = await portfolio('101', '2022-Q3');
    expect(m1).toMatchObject({
      cik: '0000000101',
      name: 'LEADING ZEROS CAPITAL',
      total_value: 320,
      position_count: 4,
    });
    const byKey = new Map(m1.holdings.map((h: Row) => [`${h.cusip}|${h.share_type}|${h.put_call}`, h]));
    expect(byKey.get(`${AAPL.cusip}|SH|null`)).toMatchObject({ value: 150, shares: 1000 });
    expect(byKey.get(`${AAPL.cusip}|SH|CALL`)).toMatchObject({ value: 20, shares: 150 });
    expect(byKey.get(`${AAPL.cusip}|SH|PUT`)).toMatchObject({ value: 10, shares: 80 });
    expect(byKey.get(`${BOND.cusip}|PRN|null`)).toMatchObject({ value: 140, shares: 150_000 });
    const timeline = (await api.get('/api/holdings/0000000101/timeline')).body;
    // Equity = SH without put/call only; the bond and the options are not equity.
    expect(timeline).toEqual([
      { quarter: '2022-Q3', total_value: 320, position_count: 4, equity_value: 150, options_count: 2 },
    ]);
    const m3 = await portfolio('303', '2022-Q3');
    expect(m3.holdings.map((h: Row) => h.cusip)).toEqual([MSFT.cusip]);
    expect((await api.get('/api/holdings/202')).status).toBe(404);
    const m5 = await portfolio('505', '2022-Q4');
    expect(m5).toMatchObject({ total_value: 1235, state: null });
  });

  it('applies amendments arriving in a later data set, in whole dollars, to the quarters they touch', async () => {
    const { code, summary, stderr } = await ingest('--from', zip2);
    expect(code, stderr).toBe(0);
    expect(summary).toMatchObject({ ok: true, rejected: 0 });
    expect(stderr).toMatch(/deriving holdings for 2 quarter\(s\): 2022-Q3, 2022-Q4/);
    // RESTATEMENT replaces the whole report; dollars → thousands.
    const m1 = await portfolio('0000000101', '2022-Q3');
    expect(m1).toMatchObject({
      form_type: '13F-HR/A',
      filed_at: '2023-01-10',
      total_value: 175,
      position_count: 1,
    });
    expect(m1.holdings[0]).toMatchObject({ cusip: AAPL.cusip, value: 175, shares: 1100 });
    // NEW HOLDINGS adds the holding that confidential treatment had withheld.
    const m3 = await portfolio('303', '2022-Q3');
    expect(m3.holdings.map((h: Row) => [h.cusip, h.value])).toEqual([
      [MSFT.cusip, 90],
      [NVDA.cusip, 30],
    ]);
    // Filed 2023-01-03 (dollars) and 2022-12-30 (thousands): both normalised to thousands.
    expect((await portfolio('404', '2022-Q4')).total_value).toBeCloseTo(1234.567, 6);
    expect((await portfolio('505', '2022-Q4')).total_value).toBe(1235);
    const holders = (await api.get(`/api/holdings?mode=stocks&cusip=${AAPL.cusip}&quarter=2022-Q4`)).body;
    expect(holders.data.map((h: Row) => h.cik).sort()).toEqual(['0000000404', '0000000505']);
  });

  it('is idempotent: re-running both data sets changes nothing', async () => {
    const before = await portfolio('303', '2022-Q3');
    const { code, summary } = await ingest('--from', dir);
    expect(code).toBe(0);
    expect(summary.ok).toBe(true);
    const table = (name: string) => summary.tables.find((t: Row) => t.table === name);
    expect(table('filings_13f')).toMatchObject({ staged: 7, inserted: 0, updated: 7, removed: 0 });
    // Rows are stored packed, one record per filing with rows (6 of the 7; one is a 13F-NT).
    expect(table('info_tables_13f')).toMatchObject({ staged: 6, inserted: 0, updated: 6, removed: 0 });
    expect(await portfolio('303', '2022-Q3')).toEqual(before);
    const managers = (await api.get('/api/holdings?quarter=2022-Q3')).body;
    expect(managers.data.map((m: Row) => m.cik).sort()).toEqual(['0000000101', '0000000303']);
  });

  it('fails loudly on a file that is not a data set, leaving the data as it was', async () => {
    const { code, summary } = await ingest('--from', join(dir, 'missing_form13f.zip'));
    expect(code).not.toBe(0);
    expect(summary.ok).toBe(false);
    expect((await portfolio('101', '2022-Q3')).total_value).toBe(175);
  });

  it('fails on a data set whose INFOTABLE was cut short or damaged, leaving the data as it was', async () => {
    const before = (await api.get('/api/v1/meta')).body.dataset_version;
    // Beside the good data sets, not among them: the idempotence test loads the whole folder.
    const damagedDir = mkdtempSync(join(dir, '..', 'regdata-sec13f-damaged-'));
    const cut = join(damagedDir, '01mar2023-31may2023_form13f.zip');
    const size = withStatedSize(zip2, cut, 'INFOTABLE.tsv', 1);
    const damaged = join(damagedDir, '01jun2023-31aug2023_form13f.zip');
    withDamagedData(zip2, damaged, 'INFOTABLE.tsv');
    for (const [file, message] of [
      [
        cut,
        `01mar2023-31may2023_form13f.zip: member INFOTABLE.tsv holds only ${size} of its ${size + 1} bytes`,
      ],
      [damaged, '01jun2023-31aug2023_form13f.zip: member INFOTABLE.tsv'],
    ] as const) {
      const { code, summary } = await ingest('--from', file);
      expect(code).not.toBe(0);
      expect(summary.ok).toBe(false);
      expect(summary.error).toContain(message);
      // Named once: the reader's message begins with the data set's name.
      expect(summary.error).not.toContain(`${basename(file)}: ${basename(file)}`);
    }
    expect((await portfolio('101', '2022-Q3')).total_value).toBe(175);
    expect((await api.get('/api/v1/meta')).body.dataset_version).toBe(before);
    rmSync(damagedDir, { recursive: true, force: true });
  });
});
