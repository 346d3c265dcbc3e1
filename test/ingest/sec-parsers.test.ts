import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type DatasetFiling, writeFilingsZip } from '../../bench/sec-13f-dataset.js';
import { headerKey, readAdviserCsv } from '../../src/ingest/sources/sec/adv-csv.js';
import {
  normaliseCompanyName,
  parseCompanyTickers,
  tickerMatcher,
} from '../../src/ingest/sources/sec/company-tickers.js';
import { readDatasetFilings, scanDatasetInfoTable } from '../../src/ingest/sources/sec/dataset-records.js';
import { datasetLabel, openDatasetZip } from '../../src/ingest/sources/sec/dataset-zip.js';
import { parseInfoTable, parsePrimaryDoc } from '../../src/ingest/sources/sec/edgar-xml.js';
import { parseIapdFeed } from '../../src/ingest/sources/sec/iapd-xml.js';
import { isValidCusip, parseOfficialList } from '../../src/ingest/sources/sec/official-list.js';
import { decodeSecText } from '../../src/ingest/sources/sec/text-decoding.js';
import type { AdviserRecord, InfoTableRow, Rejection } from '../../src/ingest/sources/sec/types.js';
import { parseCik, parseSecDate, parseWholeNumber } from '../../src/ingest/sources/sec/values.js';
import { withDamagedData, withStatedSize } from './helpers/zip-damage.js';

const dir = mkdtempSync(join(tmpdir(), 'regdata-sec-parsers-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('SEC field parsers', () => {
  it('reads every date spelling SEC uses and rejects impossible days', () => {
    expect(parseSecDate('31-DEC-2023')).toBe('2023-12-31');
    expect(parseSecDate('03-jan-2023')).toBe('2023-01-03');
    expect(parseSecDate('12-31-2024')).toBe('2024-12-31');
    expect(parseSecDate('06/26/2025')).toBe('2025-06-26');
    expect(parseSecDate('20231114')).toBe('2023-11-14');
    expect(parseSecDate('2025-04-24')).toBe('2025-04-24');
    expect(parseSecDate('  ')).toBeNull();
    expect(() => parseSecDate('31-FEB-2023')).toThrow(/calendar/);
    expect(() => parseSecDate('31-XYZ-2023')).toThrow(/month/);
  });

  it('keeps 64-bit values exact and normalises CIKs with leading zeros', () => {
    expect(parseWholeNumber('123456789012')).toBe(123_456_789_012);
    expect(parseWholeNumber('7454547777')).toBe(7_454_547_777);
    expect(parseWholeNumber(' 1,234 ')).toBe(1234);
    expect(parseWholeNumber('')).toBeNull();
    expect(() => parseWholeNumber('99999999999999999999')).toThrow(/64-bit/);
    expect(() => parseWholeNumber('12abc')).toThrow(/not a number/);
    expect(parseCik('0001067983')).toBe(1_067_983);
    expect(parseCik('1067983')).toBe(1_067_983);
    expect(() => parseCik('0000000000')).toThrow();
  });
});

const berkshire: DatasetFiling = {
  accession: '0000950123-24-001234',
  cik: '0001067983',
  formType: '13F-HR',
  filingDate: '2024-02-14',
  period: '2023-12-31',
  managerName: 'BERKSHIRE HATHAWAY INC',
  summary: { entryTotal: 2, valueTotal: 174_300_000_000 },
  rows: [
    { cusip: '037833100', issuer: 'APPLE INC', value: 174_000_000_000, shares: 905_560_000 },
    { cusip: '037833100', issuer: 'APPLE INC', value: 300_000_000, shares: 1_560_000, putCall: 'Call' },
  ],
};

/** A data set's filings and INFOTABLE rows, as the loader reads them. */
async function readDataset(path: string) {
  const zip = await openDatasetZip(path);
  const rejections: Rejection[] = [];
  const filings = await readDatasetFilings(zip, rejections);
  const rows: InfoTableRow[] = [];
  for await (const _ of scanDatasetInfoTable(zip, rejections, (row) => rows.push({ ...row }))) {
    // rows arrive through the callback
  }
  zip.close();
  return { filings, rows, rejections };
}

describe('13F data set ZIP reader', () => {
  it('recognises both naming schemes', () => {
    expect(datasetLabel('/tmp/2023q4_form13f.zip')).toBe('2023Q4');
    expect(datasetLabel('01jun2024-31aug2024_form13f.zip')).toBe('2024-06-01..2024-08-31');
    expect(datasetLabel('something.zip')).toBeNull();
  });

  it('finds members in a nested folder, reads columns by name without FIGI', async () => {
    const path = join(dir, '2022q4_form13f.zip');
    await writeFilingsZip(path, [berkshire], { folder: '2022q4_form13f', figi: false });
    const { filings, rows, rejections } = await readDataset(path);
    expect(rejections).toEqual([]);
    expect(filings.get(berkshire.accession)).toMatchObject({
      cik: 1_067_983,
      formType: '13F-HR',
      filingDate: '2024-02-14',
      period: '2023-12-31',
      isAmendment: false,
      managerName: 'BERKSHIRE HATHAWAY INC',
      tableValueTotal: 174_300_000_000,
    });
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatchObject({
      cusip: '037833100',
      value: 174_000_000_000,
      shareType: 'SH',
      figi: null,
    });
    expect(rows[1]?.putCall).toBe('CALL');
  });

  it('reads stored (uncompressed) members as it reads deflated ones', async () => {
    const read = async (compress: boolean) => {
      const path = join(dir, `${compress ? 'deflated' : 'stored'}_form13f.zip`);
      await writeFilingsZip(path, [berkshire], { compress });
      const { filings, rows, rejections } = await readDataset(path);
      return { filings: [...filings.values()], rows, rejections };
    };
    const stored = await read(false);
    expect(stored.rows).toHaveLength(2);
    expect(stored).toEqual(await read(true));
  });

  it('refuses a member whose bytes are not the size its directory states, or do not inflate', async () => {
    const path = join(dir, 'whole_form13f.zip');
    await writeFilingsZip(path, [berkshire]);
    const readInfoTable = async (file: string) => {
      const zip = await openDatasetZip(file);
      try {
        let bytes = 0;
        for await (const chunk of await zip.open('INFOTABLE.tsv')) bytes += (chunk as Buffer).length;
        return bytes;
      } finally {
        zip.close();
      }
    };
    const size = await readInfoTable(path);
    const longer = join(dir, 'longer_form13f.zip');
    expect(withStatedSize(path, longer, 'INFOTABLE.tsv', 1)).toBe(size);
    await expect(readInfoTable(longer)).rejects.toThrow(
      `member INFOTABLE.tsv holds only ${size} of its ${size + 1} bytes`,
    );
    const shorter = join(dir, 'shorter_form13f.zip');
    withStatedSize(path, shorter, 'INFOTABLE.tsv', -1);
    await expect(readInfoTable(shorter)).rejects.toThrow(
      `member INFOTABLE.tsv holds more than its ${size - 1} bytes`,
    );
    const damaged = join(dir, 'damaged_form13f.zip');
    withDamagedData(path, damaged, 'INFOTABLE.tsv');
    await expect(readInfoTable(damaged)).rejects.toThrow(/member INFOTABLE\.tsv/);
  });

  it('rejects a ZIP that lacks the data set members', async () => {
    const path = join(dir, 'not-a-dataset.zip');
    const { writeDatasetZip } = await import('../../bench/sec-13f-dataset.js');
    await writeDatasetZip(path, [{ name: 'README.txt', header: ['hello'], rows: [] }]);
    await expect(openDatasetZip(path)).rejects.toThrow(/missing SUBMISSION\.tsv/);
  });

  it('rejects bad rows with a reason instead of storing them', async () => {
    const path = join(dir, 'bad-rows.zip');
    await writeFilingsZip(path, [
      {
        ...berkshire,
        rows: [
          { cusip: '12345', issuer: 'SHORT CUSIP', value: 1, shares: 1 },
          { cusip: '037833100', issuer: 'APPLE', value: 'n/a', shares: 1 },
          { cusip: '037833100', issuer: 'APPLE', value: 5, shares: 1, shareType: 'XX' },
          { cusip: '037833100', issuer: 'APPLE', value: 5, shares: 1 },
        ],
      },
    ]);
    const zip = await openDatasetZip(path);
    const rejections: Rejection[] = [];
    let count = 0;
    for await (const parsed of scanDatasetInfoTable(zip, rejections, () => {})) count += parsed;
    zip.close();
    expect(count).toBe(1);
    expect(rejections.map((r) => r.reason)).toEqual([
      'invalid CUSIP "12345"',
      'not a number: "n/a"',
      'SSHPRNAMTTYPE must be SH or PRN, got "XX"',
    ]);
  });
});

describe('EDGAR XML', () => {
  it('reads an information table under any namespace prefix', async () => {
    for (const prefix of ['', 'ns1:', 'n1:']) {
      const ns = prefix ? `xmlns:${prefix.slice(0, -1)}` : 'xmlns';
      const xml = `\n<?xml version="1.0"?><${prefix}informationTable ${ns}="http://www.sec.gov/edgar/document/thirteenf/informationtable">
        <${prefix}infoTable><${prefix}nameOfIssuer>AT&amp;T INC</${prefix}nameOfIssuer><${prefix}titleOfClass>COM</${prefix}titleOfClass>
        <${prefix}cusip>00206r102</${prefix}cusip><${prefix}value>7454547777</${prefix}value>
        <${prefix}shrsOrPrnAmt><${prefix}sshPrnamt>1000</${prefix}sshPrnamt><${prefix}sshPrnamtType>SH</${prefix}sshPrnamtType></${prefix}shrsOrPrnAmt>
        <${prefix}putCall>Put</${prefix}putCall><${prefix}investmentDiscretion>SOLE</${prefix}investmentDiscretion>
        <${prefix}votingAuthority><${prefix}Sole>1000</${prefix}Sole><${prefix}Shared>0</${prefix}Shared><${prefix}None>0</${prefix}None></${prefix}votingAuthority>
        </${prefix}infoTable></${prefix}informationTable>`;
      const rows: InfoTableRow[] = [];
      const seen = await parseInfoTable([xml], '0000000001-24-000001', (row) => rows.push(row), []);
      expect(seen).toBe(1);
      expect(rows[0]).toMatchObject({
        cusip: '00206R102',
        issuer: 'AT&T INC',
        value: 7_454_547_777,
        shares: 1000,
        putCall: 'PUT',
        votingSole: 1000,
      });
    }
  });

  it('reads a primary document by local names, not the other managers', async () => {
    const xml = `<edgarSubmission xmlns="http://www.sec.gov/edgar/thirteenffiler" xmlns:com="http://www.sec.gov/edgar/common">
      <headerData><submissionType>13F-HR/A</submissionType><filerInfo><filer><credentials><cik>0000000042</cik></credentials></filer>
      <periodOfReport>03-31-2024</periodOfReport></filerInfo></headerData>
      <formData><coverPage><reportCalendarOrQuarter>03-31-2024</reportCalendarOrQuarter><isAmendment>true</isAmendment>
      <amendmentNo>2</amendmentNo><amendmentInfo><amendmentType>NEW HOLDINGS</amendmentType></amendmentInfo>
      <filingManager><name>Main Manager</name><address><com:city>Boston</com:city><com:stateOrCountry>MA</com:stateOrCountry></address></filingManager>
      <reportType>13F COMBINATION REPORT</reportType>
      <otherManagersInfo><otherManager><name>Someone Else</name></otherManager></otherManagersInfo></coverPage>
      <summaryPage><tableEntryTotal>3</tableEntryTotal><tableValueTotal>1234</tableValueTotal><isConfidentialOmitted>true</isConfidentialOmitted></summaryPage>
      <signatureBlock><signatureDate>05-01-2024</signatureDate></signatureBlock></formData></edgarSubmission>`;
    const doc = await parsePrimaryDoc([xml]);
    expect(doc).toMatchObject({
      cik: 42,
      formType: '13F-HR/A',
      period: '2024-03-31',
      isAmendment: true,
      amendmentNo: 2,
      amendmentType: 'NEW HOLDINGS',
      managerName: 'Main Manager',
      city: 'Boston',
      stateOrCountry: 'MA',
      reportType: '13F COMBINATION REPORT',
      tableEntryTotal: 3,
      tableValueTotal: 1234,
      isConfidentialOmitted: true,
      signatureDate: '2024-05-01',
    });
  });

  it('refuses malformed XML with a message', async () => {
    await expect(parseInfoTable(['<informationTable><infoTable>'], 'x', () => {}, [])).rejects.toThrow(
      /malformed XML/,
    );
  });
});

describe('Form ADV', () => {
  it('compares header names without spaces and case', () => {
    expect(headerKey('Organization CRD #')).toBe(headerKey('Organization CRD#'));
    expect(headerKey('5F(2)(c)')).toBe('5F(2)(C)');
  });

  it('reads the monthly CSV: old header spelling, padded amounts, Latin-1 names', async () => {
    const csv = Buffer.concat([
      Buffer.from(
        'Primary Business Name,Organization CRD #,SEC#,Main Office State,5A,5C(1),5F(2)(a),5F(2)(c)\r\n' +
          '"ACME, INC",38,801-1,ca,30.0, 16,"           576,373,248.00","           578,062,390.00"\r\n' +
          'Z',
        'latin1',
      ),
      Buffer.from([0xdc]), // Ü in Latin-1
      Buffer.from(
        'RICH AG,79,801-2,,, ,                      .00,\r\n,80,,,,,,\r\nNO CRD,abc,,,,,,\r\n',
        'latin1',
      ),
    ]);
    const rejections: Rejection[] = [];
    const advisers: AdviserRecord[] = [];
    for await (const adviser of readAdviserCsv(decodeSecText(csv), rejections)) advisers.push(adviser);
    expect(advisers).toHaveLength(2);
    expect(advisers[0]).toMatchObject({
      crd: 38,
      name: 'ACME, INC',
      secNumber: '801-1',
      state: 'CA',
      employees: 30,
      clients: 16,
      aum: 578_062_390,
      discretionaryAum: 576_373_248,
    });
    expect(advisers[1]).toMatchObject({ crd: 79, name: 'ZÜRICH AG', aum: null, discretionaryAum: 0 });
    expect(rejections.map((r) => r.reason)).toEqual([
      'no business or legal name',
      'invalid Organization CRD# "abc"',
    ]);
  });

  it('streams the IAPD feed, reading attributes', async () => {
    const xml = `<?xml version="1.0" encoding="ISO-8859-1"?><IAPDFirmSECReport><Firms>
      <Firm><Info SECRgnCD="MIRO" FirmCrdNb="105958" SECNb="801-64808" BusNm="ABC CAPITAL" LegalNm="ABC CAPITAL LLC"/>
      <MainAddr Strt1="1 Main" City="Austin" State="TX" Cntry="United States" PostlCd="78701" PhNb="512"/>
      <Rgstn FirmType="Registered" St="APPROVED" Dt="2005-01-01"/><Filing Dt="2025-03-28" FormVrsn="10/2021"/>
      <FormInfo><Part1A><Item1><WebAddrs><WebAddr>https://abc.example</WebAddr><WebAddr>https://b.example</WebAddr></WebAddrs></Item1>
      <Item5A TtlEmp="12"/><Item5F Q5F1="Y" Q5F2A="1000000" Q5F2B="500" Q5F2C="1000500"/></Part1A></FormInfo></Firm>
      <Firm><Info FirmCrdNb="" BusNm="NO CRD"/></Firm></Firms></IAPDFirmSECReport>`;
    const firms: AdviserRecord[] = [];
    const rejections: Rejection[] = [];
    const seen = await parseIapdFeed([xml], (firm) => firms.push(firm), rejections);
    expect(seen).toBe(2);
    expect(firms).toEqual([
      expect.objectContaining({
        crd: 105_958,
        secNumber: '801-64808',
        name: 'ABC CAPITAL',
        state: 'TX',
        website: 'https://abc.example',
        employees: 12,
        aum: 1_000_500,
        discretionaryAum: 1_000_000,
        latestFilingDate: '2025-03-28',
        registrationStatus: 'APPROVED',
      }),
    ]);
    expect(rejections).toHaveLength(1);
  });
});

describe('Official 13(f) list and tickers', () => {
  it('validates CUSIP check digits', () => {
    expect(isValidCusip('037833100')).toBe(true);
    expect(isValidCusip('594918104')).toBe(true);
    expect(isValidCusip('G0176J109')).toBe(true);
    expect(isValidCusip('037833101')).toBe(false);
  });

  it('parses fixed-width lines, with drifting widths, statuses and headers', () => {
    const text = [
      'Run Date: 12/13/2024                 Run Time: 10:00',
      'CUSIP NO      ISSUER NAME                   ISSUER DESCRIPTION          STATUS',
      '037833100    APPLE INC                      COM',
      '037833902 *  APPLE INC                      CALL                         ADDED',
      '594918104    MICROSOFT CORP                 COM                          *D*',
      'G0176J109 ALLEGION PUBLIC LIMITED COMPANORD SHS',
      '037833101    BAD CHECK DIGIT                COM',
    ].join('\r\n');
    const rejections: Rejection[] = [];
    const entries = parseOfficialList(text, rejections);
    expect(entries).toEqual([
      { cusip: '037833100', issuer: 'APPLE INC', titleOfClass: 'COM', status: null },
      { cusip: '037833902', issuer: 'APPLE INC', titleOfClass: 'CALL', status: 'A' },
      { cusip: '594918104', issuer: 'MICROSOFT CORP', titleOfClass: 'COM', status: 'D' },
      { cusip: 'G0176J109', issuer: 'ALLEGION PUBLIC LIMITED COMPAN', titleOfClass: 'ORD SHS', status: null },
    ]);
    expect(rejections).toHaveLength(1);
  });

  it('matches tickers conservatively by normalised name', () => {
    const companies = parseCompanyTickers(
      JSON.stringify({
        0: { cik_str: 320193, ticker: 'AAPL', title: 'Apple Inc.' },
        1: { cik_str: 1652044, ticker: 'GOOGL', title: 'Alphabet Inc.' },
        2: { cik_str: 1652044, ticker: 'GOOG', title: 'Alphabet Inc.' },
        3: { cik_str: 1018724, ticker: 'AMZN', title: 'AMAZON COM INC' },
      }),
    );
    const match = tickerMatcher(companies);
    expect(normaliseCompanyName('AMAZON.COM INC')).toBe(normaliseCompanyName('AMAZON COM INC'));
    expect(match('APPLE INC', 'COM')).toBe('AAPL');
    expect(match('AMAZON.COM INC', 'COM')).toBe('AMZN');
    expect(match('APPLE INC', 'CALL')).toBeNull();
    expect(match('ALPHABET INC', 'CAP STK CL A')).toBeNull();
    expect(match('UNKNOWN CO', 'COM')).toBeNull();
    const exchange = parseCompanyTickers(
      '{"fields":["cik","name","ticker","exchange"],"data":[[1,"X Corp","XX","NYSE"]]}',
    );
    expect(exchange).toEqual([{ cik: 1, ticker: 'XX', title: 'X Corp', exchange: 'NYSE' }]);
    // Entries without a CIK, a ticker or a name are left out and reported.
    const reasons: string[] = [];
    const kept = parseCompanyTickers(
      '{"fields":["cik","name","ticker","exchange"],"data":[["12x4","Y","YY",null],[2,"Z",""," "],[3,"","ZZ",null],[4,"W","WW",""]]}',
      (reason) => reasons.push(reason),
    );
    expect(kept).toEqual([{ cik: 4, ticker: 'WW', title: 'W', exchange: null }]);
    expect(reasons).toEqual(['invalid CIK', 'missing ticker', 'missing name']);
  });
});
