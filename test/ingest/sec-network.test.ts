/**
 * The SEC sources against a real HTTP server on 127.0.0.1 standing in for www.sec.gov: a declared
 * User-Agent is required (clear error, no request without it), requests stay under 10 per second,
 * `--latest N` discovers data sets from the data-set page, the adviser page gives the newest monthly
 * ZIP, and sec-securities falls back through unpublished 13(f) list names and fills tickers.
 */

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import yazl from 'yazl';
import { type DatasetFiling, writeFilingsZip } from '../../bench/sec-13f-dataset.js';
import { type Backend, type TestDatabase, testBackends } from '../helpers/backends.js';
import { type ApiUnderTest, openApi } from './helpers/api.js';
import { ingestJson } from './helpers/cli.js';

type Row = Record<string, unknown>;
const AGENT = 'regdata tests tests@example.org';

function filing(accession: string, period: string, filed: string, cusip: string): DatasetFiling {
  return {
    accession,
    cik: '0000000777',
    formType: '13F-HR',
    filingDate: filed,
    period,
    managerName: 'NETWORK CAPITAL',
    summary: { entryTotal: 1, valueTotal: 5000 },
    rows: [{ cusip, issuer: 'APPLE INC', value: 5000, shares: 40 }],
  };
}

async function zipOf(name: string, text: string): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  zip.addBuffer(Buffer.from(text, 'latin1'), name);
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

interface Hit {
  path: string;
  at: number;
  headers: IncomingHttpHeaders;
}

const dir = mkdtempSync(join(tmpdir(), 'regdata-secnet-'));
const files = new Map<string, Buffer>();
const hits: Hit[] = [];
let server: Server;
let base = '';

beforeAll(async () => {
  const sets: [string, DatasetFiling][] = [
    ['2024q3_form13f.zip', filing('0000000777-24-000001', '2024-06-30', '2024-08-10', '037833100')],
    [
      '01sep2024-30nov2024_form13f.zip',
      filing('0000000777-24-000002', '2024-09-30', '2024-11-10', '037833100'),
    ],
    [
      '01dec2024-28feb2025_form13f.zip',
      filing('0000000777-25-000001', '2024-12-31', '2025-02-10', '037833100'),
    ],
  ];
  for (const [name, f] of sets) {
    await writeFilingsZip(join(dir, name), [f]);
    files.set(`/files/structureddata/data/form-13f-data-sets/${name}`, readFileSync(join(dir, name)));
  }
  files.set(
    '/data-research/sec-markets-data/form-13f-data-sets',
    Buffer.from(
      `<html><a href="/files/structureddata/data/form-13f-data-sets/2024q3_form13f.zip">2024 Q3</a>
       <a href="https://elsewhere.invalid/readme.htm">readme</a>
       <a href="../../files/structureddata/data/form-13f-data-sets/01dec2024-28feb2025_form13f.zip">Dec–Feb</a>
       <a href='/files/structureddata/data/form-13f-data-sets/01sep2024-30nov2024_form13f.zip'>Sep–Nov</a></html>`,
    ),
  );
  const csv =
    'Primary Business Name,Organization CRD #,SEC#,Main Office State,5F(2)(c)\r\nNEW ADVISER,1,801-1,NY,"  1,000.00"\r\n';
  files.set('/files/investment/data/ia020125.zip', await zipOf('ia020125.csv', csv));
  files.set('/files/investment/data/ia010125.zip', await zipOf('ia010125.csv', csv.replace('NEW', 'OLD')));
  files.set(
    '/data-research/sec-markets-data/information-about-registered-investment-advisers-exempt-reporting-advisers',
    Buffer.from(
      '<a href="/files/investment/data/ia010125.zip">Jan</a><a href="/files/investment/data/ia020125-exempt.zip">x</a>' +
        '<a href="/files/investment/data/ia020125.zip">Feb</a>',
    ),
  );
  const year = new Date().getUTCFullYear();
  const quarter = Math.floor(new Date().getUTCMonth() / 3) + 1;
  // Only last quarter's list is published, under the older name.
  const previous = quarter === 1 ? `${year - 1}q4` : `${year}q${quarter - 1}`;
  files.set(
    `/files/investment/13flist${previous}.txt`,
    Buffer.from(
      '037833100 APPLE INC                     COM\r\n594918104 MICROSOFT CORP                COM\r\n',
    ),
  );
  files.set(
    '/files/company_tickers.json',
    Buffer.from(JSON.stringify({ 0: { cik_str: 320193, ticker: 'AAPL', title: 'Apple Inc.' } })),
  );
  server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    hits.push({ path, at: Date.now(), headers: req.headers });
    const body = files.get(path);
    res.writeHead(body ? 200 : 404, { 'content-length': String(body?.length ?? 9) });
    res.end(body ?? 'not found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

describe.each(testBackends())('SEC network sources on $name', (backend: Backend) => {
  let database: TestDatabase;
  let api: ApiUnderTest;
  const env = (agent = true) => ({
    DATABASE_URL: database.url,
    SEC_BASE_URL: base,
    ...(agent ? { SEC_USER_AGENT: AGENT } : {}),
  });

  beforeAll(async () => {
    database = await backend.create();
    api = await openApi(database);
  });
  afterAll(async () => {
    await api?.close();
    await database?.drop();
  });

  it('refuses to contact SEC without SEC_USER_AGENT, naming the variable', async () => {
    const before = hits.length;
    const { code, summary } = await ingestJson(['sec-13f'], env(false));
    expect(code).not.toBe(0);
    expect(summary.error).toMatch(/SEC_USER_AGENT/);
    expect(hits.length).toBe(before);
  });

  it('--latest 2 loads the two newest data sets from the page, politely and with the User-Agent', async () => {
    const before = hits.length;
    const { code, summary, stderr } = await ingestJson(['sec-13f', '--latest', '2'], env());
    expect(code, stderr).toBe(0);
    const mine = hits.slice(before);
    expect(mine.map((h) => h.path.split('/').pop())).toEqual([
      'form-13f-data-sets',
      '01dec2024-28feb2025_form13f.zip',
      '01sep2024-30nov2024_form13f.zip',
    ]);
    expect(mine.every((h) => h.headers['user-agent'] === AGENT)).toBe(true);
    for (let i = 1; i < mine.length; i += 1)
      expect(mine[i]!.at - mine[i - 1]!.at).toBeGreaterThanOrEqual(100);
    expect(summary.upstream).toContain('01dec2024-28feb2025_form13f.zip');
    const timeline = (await api.get('/api/holdings/777/timeline')).body;
    expect(timeline.map((t: Row) => t.quarter)).toEqual(['2024-Q3', '2024-Q4']);
  });

  it('sec-advisers picks the newest monthly ZIP (not the exempt one) from the adviser page', async () => {
    const { code, summary, stderr } = await ingestJson(['sec-advisers'], env());
    expect(code, stderr).toBe(0);
    expect(summary.upstream).toMatch(/ia020125\.zip$/);
    const advisers = (await api.get('/api/advisers')).body;
    expect(advisers.data).toEqual([expect.objectContaining({ crd: 1, name: 'NEW ADVISER', aum: 1000 })]);
  });

  it('sec-advisers reads a gzipped IAPD feed given with --from and replaces every adviser', async () => {
    const feed = join(dir, 'IA_FIRM_SEC_Feed_04_24_2025.xml.gz');
    const xml =
      '<?xml version="1.0" encoding="ISO-8859-1"?><IAPDFirmSECReport><Firms><Firm>' +
      '<Info FirmCrdNb="105958" SECNb="801-64808" BusNm="Z\u00dcRICH ADVISERS" LegalNm="ZURICH ADVISERS AG"/>' +
      '<MainAddr City="Austin" State="TX"/><Item5A TtlEmp="12"/><Item5F Q5F2A="900" Q5F2B="100" Q5F2C="1000"/>' +
      '</Firm></Firms></IAPDFirmSECReport>';
    writeFileSync(feed, gzipSync(Buffer.from(xml, 'latin1')));
    const { code, summary, stderr } = await ingestJson(
      ['sec-advisers', '--from', feed, '--allow-shrink'],
      env(false),
    );
    expect(code, stderr).toBe(0);
    expect(summary).toMatchObject({ ok: true, read: 1, removed: 1 });
    const advisers = (await api.get('/api/advisers?state=tx')).body;
    expect(advisers.data).toEqual([
      expect.objectContaining({ crd: 105_958, name: 'ZÜRICH ADVISERS', employees: 12, aum: 1000 }),
    ]);
  });

  it('sec-securities falls back to the newest published 13(f) list and gives holdings a ticker', async () => {
    const { code, summary, stderr } = await ingestJson(['sec-securities'], env());
    expect(code, stderr).toBe(0);
    expect(summary).toMatchObject({ ok: true, read: 2 });
    expect(stderr).toMatch(/not published: .*-txt\.txt/);
    const portfolio = (await api.get('/api/holdings/777?quarter=2024-Q4')).body;
    expect(portfolio.holdings).toEqual([expect.objectContaining({ cusip: '037833100', ticker: 'AAPL' })]);
    const crowded = (await api.get('/api/crowded?quarter=2024-Q4')).body;
    expect(crowded.data).toEqual([expect.objectContaining({ cusip: '037833100', ticker: 'AAPL' })]);
  });
});
