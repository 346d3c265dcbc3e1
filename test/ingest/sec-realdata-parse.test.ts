/** The SEC parsers on the real files in ../shared/realdata (skipped with a message when absent). */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readAdviserCsv } from '../../src/ingest/sources/sec/adv-csv.js';
import { parseCompanyTickers, tickerMatcher } from '../../src/ingest/sources/sec/company-tickers.js';
import { parseFiling } from '../../src/ingest/sources/sec/edgar-filing.js';
import { parsePrimaryDoc } from '../../src/ingest/sources/sec/edgar-xml.js';
import { decodeSecText } from '../../src/ingest/sources/sec/text-decoding.js';
import type { Rejection } from '../../src/ingest/sources/sec/types.js';
import { realdata, sharedAvailable } from './sec-shared.js';

const FILES = [
  'sec_13f/13F-HR_0001951757-25-000093_nc.txt',
  'sec_13f/13F-HR_full_submission_0000007195-21-000001.txt',
  'sec_13f/13F-HR_full_submission_0001894188-23-000007.txt',
  'sec_13f/13F-HR_infotable_255holdings.xml',
  'sec_13f/13F-HR_primarydoc_abacus_2020Q4.xml',
  'sec_13f/13F-HR_primarydoc_metlife_2021Q4.xml',
  'sec_13f/SEC_official_sample_information_table.xml',
  'sec_adv/sec_registered_advisers_2026-02.csv',
  'sec_tickers/company_tickers_2024-05.json',
  'sec_tickers/cusip_to_ticker_openfigi_results.csv',
];
const available = sharedAvailable(FILES);
const read = (file: string) => readFileSync(realdata(file), 'utf8');
const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);

describe.skipIf(!available)('real SEC files parse', () => {
  it.each([
    ['13F-HR_0001951757-25-000093_nc.txt', '0001951757-25-000093', 1_994_827, '2025-01-22', '2024-12-31'],
    [
      '13F-HR_full_submission_0000007195-21-000001.txt',
      '0000007195-21-000001',
      7195,
      '2021-01-27',
      '2020-12-31',
    ],
    [
      '13F-HR_full_submission_0001894188-23-000007.txt',
      '0001894188-23-000007',
      1_894_188,
      '2023-11-14',
      '2023-09-30',
    ],
  ])(
    '%s: header, cover page and a table matching its summary page',
    async (file, accession, cik, filed, period) => {
      const parsed = await parseFiling([{ name: file, text: read(`sec_13f/${file}`) }]);
      expect(parsed.filing).toMatchObject({ accession, cik, filingDate: filed, period, formType: '13F-HR' });
      expect(parsed.rejections).toEqual([]);
      expect(parsed.rows.length).toBe(parsed.filing.tableEntryTotal);
      // Dollar filings add up exactly. Thousands filings round each row, so the filer's own total can
      // differ by up to half a unit per row (Argus 2020Q4: rows 228,038 vs summary 228,040).
      const tolerance = filed < '2023-01-03' ? parsed.rows.length / 2 : 0;
      const difference =
        sum(parsed.rows.map((row) => row.value)) - (parsed.filing.tableValueTotal ?? Number.NaN);
      expect(Math.abs(difference)).toBeLessThanOrEqual(tolerance);
    },
  );

  it('primary documents alone parse; loading one without its table is refused', async () => {
    const abacus = await parsePrimaryDoc([read('sec_13f/13F-HR_primarydoc_abacus_2020Q4.xml')]);
    expect(abacus).toMatchObject({ period: '2020-12-31', tableEntryTotal: 92, tableValueTotal: 114_663_960 });
    const metlife = await parsePrimaryDoc([read('sec_13f/13F-HR_primarydoc_metlife_2021Q4.xml')]);
    expect(metlife).toMatchObject({
      cik: 1_099_219,
      reportType: '13F COMBINATION REPORT',
      tableEntryTotal: 6,
    });
    await expect(
      parseFiling([{ name: 'abacus.xml', text: read('sec_13f/13F-HR_primarydoc_abacus_2020Q4.xml') }], {
        accession: '0000000001-23-000001',
      }),
    ).rejects.toThrow(/lists 92 holdings but no information table/);
  });

  it.each([
    ['13F-HR_infotable_255holdings.xml', 255],
    ['SEC_official_sample_information_table.xml', 169],
  ])('bare information table %s parses every <infoTable>', async (file, count) => {
    const text = read(`sec_13f/${file}`);
    const parsed = await parseFiling([{ name: file, text }], {
      accession: '0000000001-24-000001',
      cik: '1',
      period: '2024-03-31',
      filingDate: '2024-05-15',
    });
    expect(parsed.tableRows).toBe(count);
    expect(parsed.rows.length + parsed.rejections.length).toBe(count);
    const fileValues = [...text.matchAll(/<(?:\w+:)?value>\s*(\d+)\s*</g)].map((m) => Number(m[1]));
    const keptValues = sum(parsed.rows.map((row) => row.value));
    expect(keptValues).toBe(sum(fileValues));
  });

  it('the ADV file yields 16,475 advisers whose AUM total equals the file', async () => {
    const text = decodeSecText(readFileSync(realdata('sec_adv/sec_registered_advisers_2026-02.csv')));
    const rejections: Rejection[] = [];
    let count = 0;
    let aum = 0;
    const skipped: string[] = [];
    for await (const adviser of readAdviserCsv(text, rejections, (reason) => skipped.push(reason))) {
      count += 1;
      aum += adviser.aum ?? 0;
    }
    expect(rejections).toEqual([]);
    expect(count).toBe(16_475);
    expect(skipped).toEqual([expect.stringMatching(/range/), expect.stringMatching(/range/)]);
    // Independent sum: the last quoted field of each line is 5F(2)(c).
    const expected = text
      .split('\n')
      .slice(1)
      .map((line) => /"?\s*([\d,]*\.\d\d)"?\s*$/.exec(line)?.[1])
      .filter((v): v is string => v !== undefined)
      .reduce((total, v) => total + Number(v.replace(/,/g, '')), 0);
    expect(aum).toBeCloseTo(expected, 0);
    expect(aum).toBeGreaterThan(1e14);
  });

  it('ticker matches agree with OpenFIGI for the CUSIPs they cover', () => {
    const match = tickerMatcher(parseCompanyTickers(read('sec_tickers/company_tickers_2024-05.json')));
    const lines = read('sec_tickers/cusip_to_ticker_openfigi_results.csv').split('\n').slice(1);
    let matched = 0;
    let agreed = 0;
    for (const line of lines) {
      // OpenFIGI lists foreign listings too; only its US composite tickers are comparable.
      const [, , name, ticker, exchange, , securityType] = line.split(',');
      if (!name || !ticker || exchange !== 'US' || securityType !== 'Common Stock') continue;
      const found = match(name, 'COM');
      if (found === null) continue;
      matched += 1;
      if (found.replace(/[.-]/g, '') === ticker.replace(/[./-]/g, '')) agreed += 1;
    }
    expect(matched).toBeGreaterThan(1000);
    expect(agreed / matched).toBeGreaterThan(0.95);
  });
});
