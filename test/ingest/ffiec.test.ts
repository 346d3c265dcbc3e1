/**
 * `regdata ingest ffiec-call` with a bulk ZIP built (yazl) from recorded schedule files: POR plus
 * schedules with two header rows, a schedule split in two parts, a nested folder, quoted IDRSSD and
 * trailing tabs; served over HTTP (FFIEC_BULK_URL) and read from a file. FDIC rows win.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import yazl from 'yazl';
import { type Backend, type TestDatabase, testBackends } from '../helpers/backends.js';
import { type ApiUnderTest, openApi } from './helpers/api.js';
import { cdrPage } from './helpers/cdr-page.js';
import { ingestJson } from './helpers/cli.js';
import { FIXTURES, startUpstream, type Upstream } from './helpers/upstream.js';

const FOLDER = 'FFIEC CDR Call Bulk All Schedules 06302025';

function buildZip(): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  const dir = join(FIXTURES, 'ffiec');
  for (const name of readdirSync(dir)) zip.addBuffer(readFileSync(join(dir, name)), `${FOLDER}/${name}`);
  zip.end();
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    zip.outputStream.on('data', (chunk: Buffer) => chunks.push(chunk));
    zip.outputStream.on('error', reject);
    zip.outputStream.on('end', () => resolve(Buffer.concat(chunks)));
  });
}

/** A one-record BankFind financials page (what FDIC serves for that bank and date). */
function fdicPage(cert: number, assets: number): string {
  return JSON.stringify({
    meta: { total: 1 },
    data: [{ data: { CERT: cert, REPDTE: '20250630', ASSET: assets, ROA: 0.5, ID: `${cert}_20250630` } }],
  });
}

describe.each(testBackends())('FFIEC call-report ingest on $name', (backend: Backend) => {
  let database: TestDatabase;
  let upstream: Upstream;
  let api: ApiUnderTest;
  let dir: string;
  let env: Record<string, string>;
  const posts: URLSearchParams[] = [];

  beforeAll(async () => {
    database = await backend.create();
    const zip = await buildZip();
    upstream = await startUpstream({
      '/bulk.zip': (_url, hit) => ({ status: hit === 1 ? 500 : 200, body: hit === 1 ? 'busy' : zip }),
      '/public/PWS/DownloadBulkData.aspx': cdrPage(zip, posts),
    });
    api = await openApi(database);
    dir = mkdtempSync(join(tmpdir(), 'regdata-ffiec-'));
    writeFileSync(join(dir, 'bulk.zip'), zip);
    env = {
      DATABASE_URL: database.url,
      FFIEC_BULK_URL: `${upstream.baseUrl}/bulk.zip`,
      // The fixture's POR file lists one filer without an FDIC certificate on purpose: 1 of its 3
      // rows is rejected, far above the guard's default limit (the guard has its own tests).
      INGEST_MAX_REJECTED_PERCENT: '50',
    };
    // Institutions, so the API serves their financials.
    const institutions = join(FIXTURES, 'bankfind', 'institutions.json');
    expect((await ingestJson(['fdic-institutions', '--from', institutions], env)).summary.ok).toBe(true);
    // FDIC already serves JPMorgan (cert 628) for 2025-06-30.
    writeFileSync(join(dir, 'fdic-628.json'), fdicPage(628, 4_000_000_000));
    expect(
      (await ingestJson(['fdic-financials', '--from', join(dir, 'fdic-628.json')], env)).summary.ok,
    ).toBe(true);
  });
  afterAll(async () => {
    await api?.close();
    await upstream?.close();
    await database?.drop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('computes the financial record from one report and keeps FDIC rows', async () => {
    const { code, summary, stderr } = await ingestJson(['ffiec-call'], env);
    expect(code, stderr).toBe(0);
    expect(summary).toMatchObject({ ok: true, read: 3, inserted: 1, kept: 1, rejected: 1 });
    expect(summary.rejected_reasons).toEqual({ 'no FDIC certificate number in the POR file': 1 });
    expect(stderr).toMatch(/HTTP 500/);

    const ergo = (await api.get('/api/v1/financials?cert=10004')).body.data[0];
    // Ergo Bank, an 051 filer (domestic RCON items), half a year of income (annualised × 2).
    expect(ergo).toMatchObject({ report_date: '2025-06-30', total_assets: 254611, total_deposits: 216536 });
    expect(ergo.total_loans).toBe(150000);
    expect(ergo.roa).toBeCloseTo((100 * 1500 * 2) / 254611, 10);
    expect(ergo.roe).toBeCloseTo(10, 10);
    expect(ergo.efficiency_ratio).toBeCloseTo((100 * 3000) / (6000 - 2000 + 500), 10);
    expect(ergo.npl_ratio).toBeCloseTo((100 * (1500 + 500)) / 150000, 10);
    expect(ergo.tier1_leverage).toBe(11.5);
    expect(ergo.equity_ratio).toBeCloseTo((100 * 30000) / 254611, 10);
    expect(ergo.loan_to_deposit).toBeCloseTo((100 * (150000 - 2000)) / 216536, 10);
    expect(ergo.charge_off_rate).toBeCloseTo((100 * (300 - 100) * 2) / 150000, 10);

    const jpm = (await api.get('/api/v1/financials?cert=628')).body.data[0];
    expect(jpm).toMatchObject({ report_date: '2025-06-30', total_assets: 4_000_000_000, roa: 0.5 });
  });

  it('FDIC replaces FFIEC rows for the banks it serves; FFIEC never overrides FDIC', async () => {
    writeFileSync(join(dir, 'fdic-10004.json'), fdicPage(10004, 260000));
    // An FDIC load is authoritative for the report dates it holds: 10004 replaces its FFIEC row,
    // and the FDIC row of 628 (absent from this load) goes: a shrink, accepted explicitly.
    const fdic = await ingestJson(
      ['fdic-financials', '--from', join(dir, 'fdic-10004.json'), '--allow-shrink'],
      env,
    );
    expect(fdic.summary).toMatchObject({ ok: true, inserted: 0, updated: 1, removed: 1 });
    expect((await api.get('/api/v1/financials?cert=10004')).body.data[0].total_assets).toBe(260000);

    const again = await ingestJson(['ffiec-call', '--from', join(dir, 'bulk.zip')], env);
    expect(again.summary).toMatchObject({ ok: true, inserted: 1, kept: 1 });
    expect((await api.get('/api/v1/financials?cert=10004')).body.data[0].total_assets).toBe(260000);
    const jpm = (await api.get('/api/v1/financials?cert=628')).body.data[0];
    // JPMorgan, an 031 filer: consolidated RCFD items, deposits domestic + foreign offices.
    expect(jpm).toMatchObject({
      total_assets: 3813431000,
      total_deposits: 2_400_000_000,
      tier1_leverage: 8.1,
    });
  });

  it('rejects what is not a bulk ZIP, changing nothing', async () => {
    writeFileSync(join(dir, 'page.zip'), '<html>Session expired</html>');
    const { code, summary } = await ingestJson(['ffiec-call', '--from', join(dir, 'page.zip')], env);
    expect(code).toBe(1);
    expect(summary.error).toMatch(/not a ZIP file/);
  });

  it('scripts the CDR download page: product, latest period, tab-delimited, Download', async () => {
    const page = `${upstream.baseUrl}/public/PWS/DownloadBulkData.aspx`;
    const { code, summary, stderr } = await ingestJson(['ffiec-call'], { ...env, FFIEC_BULK_URL: page });
    expect(code, stderr).toBe(0);
    expect(summary).toMatchObject({ ok: true, read: 3 });
    expect(summary.upstream).toBe(`${page} (Call Reports -- Single Period 2025-06-30, tab delimited)`);
    expect(posts.map((p) => p.get('__VIEWSTATE'))).toEqual(['vs1', 'vs2', 'vs3']);
    expect(posts[0]!.get('__EVENTVALIDATION')).toBe('ev&vs1');

    posts.length = 0;
    const older = await ingestJson(['ffiec-call', '--until', '2025-05-15'], { ...env, FFIEC_BULK_URL: page });
    expect(posts.at(-1)!.get('ctl00$MainContentHolder$DatesDropDownList')).toBe('144');
    expect(older.code).toBe(1);
    expect(older.summary.error).toMatch(/2025-03-31 returned text\/html content, not a ZIP/);
  });
});
