/**
 * `regdata export` and `/bulk/` on both backends, over the small demo: every Parquet file read back
 * with an independent reader (hyparquet), row counts equal to counts taken here with SQL, a sample of
 * values equal to what the HTTP API answers, the manifest's bytes and SHA-256 equal to the files';
 * CSV and NDJSON read back too; a failed export leaves the previous one as it was; the /bulk routes
 * (ETag, 304, Range, HEAD, problems, a newer export picked up without a restart).
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { parquetMetadata, parquetReadObjects } from 'hyparquet';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { configWith } from '../../src/config.js';
import type { DbHandle } from '../../src/db/connect.js';
import { buildBankingDemoWith } from '../../src/demo/banking/index.js';
import { buildHoldingsDemo } from '../../src/demo/holdings/index.js';
import { DEFAULT_DEMO_SEED } from '../../src/demo/index.js';
import { exportDataset } from '../../src/export/run.js';
import { EXPORT_TABLES } from '../../src/export/tables/index.js';
import type { ExportTable, Manifest } from '../../src/export/types.js';
import { type Backend, type TestDatabase, testBackends } from '../helpers/backends.js';
import { storedPositions } from '../helpers/positions.js';
import { type ApiUnderTest, openApi } from '../ingest/helpers/api.js';
import { BASE_ENV, runCli } from '../ingest/helpers/cli.js';

const DEMO = { seed: DEFAULT_DEMO_SEED, scale: 'small' as const };

async function seed(writer: DbHandle) {
  await buildBankingDemoWith(writer, DEMO, { active: 150, inactive: 30 });
  await buildHoldingsDemo(writer, DEMO);
}

type Row = Record<string, unknown>;

function arrayBufferOf(path: string): ArrayBuffer {
  const bytes = readFileSync(path);
  return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
}

async function readParquet(path: string): Promise<Row[]> {
  return (await parquetReadObjects({ file: arrayBufferOf(path) })) as Row[];
}

/** A DATE column as hyparquet reads it (a Date), as the API writes it. */
const day = (value: unknown) => (value instanceof Date ? value.toISOString().slice(0, 10) : value);

function sha256(path: string): string {
  return createHash('sha256').update(readFileSync(path)).digest('hex');
}

const money = (value: unknown) => Math.round(Number(value) * 1000) / 1000;

describe.each(testBackends())('bulk export on $name', (backend: Backend) => {
  let database: TestDatabase;
  let api: ApiUnderTest;
  const out = mkdtempSync(join(tmpdir(), 'regdata-export-'));
  let manifest: Manifest;
  const parquet = new Map<string, Row[]>();

  beforeAll(async () => {
    database = await backend.create();
    await seed(database.writer);
    api = await openApi(database);
    // Through the CLI, as an operator runs it.
    const run = await runCli(['export', '--format', 'parquet', '--out', out], {
      ...BASE_ENV,
      DATABASE_URL: database.url,
    });
    expect(run.code, run.stderr).toBe(0);
    manifest = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8'));
    for (const file of manifest.files) parquet.set(file.name, await readParquet(join(out, file.path)));
  }, 300_000);

  afterAll(async () => {
    await api?.close();
    await database?.drop();
    rmSync(out, { recursive: true, force: true });
  });

  const rowsOf = (name: string) => parquet.get(`${name}.parquet`) as Row[];
  const db = () => database.writer.db;

  async function countOf(table: string): Promise<number> {
    const { rows } = await sql<{ n: number | string }>`select count(*) as n from ${sql.table(table)}`.execute(
      db(),
    );
    return Number(rows[0]?.n);
  }

  it('lists every table once, with the file’s own bytes and SHA-256, typed columns with units', async () => {
    expect(manifest.files.map((f) => f.name)).toEqual(EXPORT_TABLES.map((t) => `${t.name}.parquet`));
    expect(manifest.dataset_version).toBe(
      Number((await db().selectFrom('dataset').select('version').executeTakeFirstOrThrow()).version),
    );
    for (const file of manifest.files) {
      const path = join(out, file.path);
      expect(file.bytes, file.name).toBe(statSync(path).size);
      expect(file.sha256, file.name).toBe(sha256(path));
      const metadata = parquetMetadata(arrayBufferOf(path));
      expect(Number(metadata.num_rows), file.name).toBe(file.rows);
      expect(Object.keys(rowsOf(file.name.replace('.parquet', ''))[0] ?? {})).toEqual(
        file.columns.map((c) => c.name),
      );
    }
    const financials = manifest.files.find((f) => f.name === 'financials.parquet')!;
    const unit = (name: string) => financials.columns.find((c) => c.name === name)?.unit;
    expect(unit('total_assets')).toBe('thousands of USD');
    expect(unit('roa')).toBe('percent');
    expect(unit('report_date')).toBeNull();
  });

  it('has every row of every table (counted here with SQL)', async () => {
    const tables: Record<string, string> = {
      institutions: 'institutions',
      financials: 'financials',
      failures: 'failures',
      macro_observations: 'macro_observations',
      advisers: 'advisers',
      managers: 'managers',
      securities: 'securities',
      entity_links: 'entity_links',
    };
    for (const [name, table] of Object.entries(tables)) {
      const count = await countOf(table);
      expect(count, name).toBeGreaterThan(0);
      expect(rowsOf(name), name).toHaveLength(count);
    }
    // Positions are stored packed: their count is every manager quarter's position count.
    const { rows } = await sql<{
      n: number | string;
    }>`select sum(position_count) as n from manager_quarters`.execute(db());
    expect(Number(rows[0]?.n)).toBeGreaterThan(0);
    expect(rowsOf('positions')).toHaveLength(Number(rows[0]?.n));
  });

  it('has the financials the API serves, field for field', async () => {
    const { body } = await api.get(
      '/api/v1/financials?sortBy=total_assets&limit=3&fields=total_assets,roa,npl_ratio,total_loans',
    );
    expect(body.data).toHaveLength(3);
    for (const record of body.data) {
      const row = rowsOf('financials').find(
        (r) => r.cert === record.cert && day(r.report_date) === body.date,
      );
      expect(row, `cert ${record.cert}`).toBeDefined();
      for (const field of ['total_assets', 'roa', 'npl_ratio', 'total_loans'])
        expect(row?.[field]).toBe(record[field]);
    }
  });

  it('has each position of the largest manager’s portfolio with the API’s ticker and value', async () => {
    const largest = (await api.get('/api/holdings?limit=1')).body.data[0];
    const portfolio = (await api.get(`/api/holdings/${largest.cik}`)).body;
    const rows = rowsOf('positions').filter((r) => r.cik === largest.cik && r.quarter === portfolio.quarter);
    expect(rows).toHaveLength(portfolio.holdings.length);
    const key = (r: Row) => `${r.cusip}|${r.share_type}|${r.put_call}`;
    const exported = new Map(rows.map((r) => [key(r), r]));
    for (const holding of portfolio.holdings) {
      const row = exported.get(key(holding));
      expect(row, key(holding)).toBeDefined();
      expect(money(row?.value)).toBe(holding.value);
      expect(Number(row?.shares)).toBe(holding.shares);
      expect(row?.ticker ?? null).toBe(holding.ticker);
      expect(row?.issuer).toBe(holding.issuer);
    }
  });

  it('has every stored position, by CIK, quarter, CUSIP, share type and put/call (null first)', async () => {
    const stored = await storedPositions(db());
    stored.sort((a, b) => (a.cik < b.cik ? -1 : a.cik > b.cik ? 1 : 0));
    const key = (r: Row) => [r.cik, r.quarter, r.cusip, r.share_type, r.put_call, r.value, Number(r.shares)];
    expect(rowsOf('positions').map(key)).toEqual(stored.map((p) => key(p as unknown as Row)));
  });

  it('resolves identifiers as the API does: a bank’s registrant and ticker, a manager’s adviser', async () => {
    const registered = rowsOf('institutions').filter((r) => r.registrant_cik !== null);
    expect(registered.length).toBeGreaterThan(0);
    for (const bank of registered.slice(0, 5)) {
      const { body } = await api.get(`/api/v1/banks/${bank.cert}/profile`);
      expect(bank.registrant_cik).toBe(body.registrant.cik);
      expect(bank.ticker).toBe(body.registrant.ticker);
    }
    const unregistered = rowsOf('institutions').find((r) => r.registrant_cik === null)!;
    expect((await api.get(`/api/v1/banks/${unregistered.cert}/profile`)).body.registrant).toBeNull();
    const linked = rowsOf('managers').filter((r) => r.crd !== null);
    expect(linked.length).toBeGreaterThan(0);
    for (const manager of linked.slice(0, 5)) {
      expect(Number(manager.crd)).toBe((await api.get(`/api/holdings/${manager.cik}`)).body.crd);
    }
  });

  it('writes CSV and NDJSON with the same rows and values', async () => {
    for (const format of ['csv', 'ndjson'] as const) {
      const dir = mkdtempSync(join(tmpdir(), `regdata-export-${format}-`));
      try {
        const written = await exportDataset(database.writer, { format, out: dir });
        for (const file of written.files) {
          const text = readFileSync(join(dir, file.path), 'utf8');
          const rows: Row[] =
            format === 'csv'
              ? parse(text, { columns: true })
              : text
                  .trimEnd()
                  .split('\n')
                  .map((line) => JSON.parse(line));
          const name = file.name.replace(`.${format}`, '');
          expect(rows, file.name).toHaveLength(rowsOf(name).length);
          expect(file.sha256).toBe(sha256(join(dir, file.path)));
        }
        const financials = readFileSync(join(dir, written.files[1]!.path), 'utf8');
        const first =
          format === 'csv'
            ? parse(financials, { columns: true, to: 1 })[0]
            : JSON.parse(financials.split('\n')[0]!);
        const expected = rowsOf('financials')[0]!;
        expect(Number(first.cert)).toBe(expected.cert);
        expect(Number(first.total_assets)).toBe(expected.total_assets);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    }
  });

  it('leaves the previous export exactly as it was when an export fails', async () => {
    const before = readFileSync(join(out, 'manifest.json'), 'utf8');
    const broken: ExportTable = {
      ...EXPORT_TABLES[0]!,
      name: 'broken',
      query: (db) => db.selectFrom(sql.table('no_such_table').as('t')).selectAll(),
    };
    await expect(
      exportDataset(database.writer, { format: 'parquet', out, tables: [EXPORT_TABLES[2]!, broken] }),
    ).rejects.toThrow(/no_such_table/);
    expect(readFileSync(join(out, 'manifest.json'), 'utf8')).toBe(before);
    for (const file of manifest.files) expect(sha256(join(out, file.path))).toBe(file.sha256);
    // DuckDB's conversion failing while the next table is read (text declared as integers).
    const first = EXPORT_TABLES[0]!;
    const mistyped: ExportTable = {
      ...first,
      name: 'mistyped',
      columns: first.columns.map((column) => ({ ...column, type: 'INTEGER' as const })),
    };
    await expect(
      exportDataset(database.writer, { format: 'parquet', out, tables: [mistyped, EXPORT_TABLES[2]!] }),
    ).rejects.toThrow(/convert|cast|Conversion/i);
    expect(readFileSync(join(out, 'manifest.json'), 'utf8')).toBe(before);
    expect(readdirSync(out).filter((entry) => entry.startsWith('export-'))).toHaveLength(1);
  });

  describe('/bulk', () => {
    const get = (url: string, headers: Record<string, string> = {}, method: 'GET' | 'HEAD' = 'GET') =>
      api.app.inject({ method, url, headers });
    let bulk: ApiUnderTest['app'];

    beforeAll(async () => {
      bulk = await buildApp(configWith({ logLevel: 'silent', exportDir: out }), {
        handle: database.openReader(),
      });
      await bulk.ready();
    });
    afterAll(() => bulk?.close());

    it('serves the manifest and each file with its SHA-256 as ETag', async () => {
      const index = await bulk.inject({ method: 'GET', url: '/bulk/' });
      expect(index.statusCode).toBe(200);
      expect(index.json()).toEqual(JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8')));
      const file = manifest.files.find((f) => f.name === 'positions.parquet')!;
      const response = await bulk.inject({ method: 'GET', url: `/bulk/${file.name}` });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('application/vnd.apache.parquet');
      expect(response.headers.etag).toBe(`"${file.sha256}"`);
      expect(response.headers['accept-ranges']).toBe('bytes');
      expect(createHash('sha256').update(response.rawPayload).digest('hex')).toBe(file.sha256);
      const again = await bulk.inject({
        method: 'GET',
        url: `/bulk/${file.name}`,
        headers: { 'if-none-match': `"${file.sha256}"` },
      });
      expect(again.statusCode).toBe(304);
      expect(again.rawPayload.length).toBe(0);
      expect(again.headers['content-type']).toBeUndefined();
      expect(again.headers['content-length']).toBeUndefined();
      expect(again.headers.etag).toBe(`"${file.sha256}"`);
      const head = await bulk.inject({ method: 'HEAD', url: `/bulk/${file.name}` });
      expect(head.statusCode).toBe(200);
      expect(Number(head.headers['content-length'])).toBe(file.bytes);
    });

    it('answers byte ranges (206) and unsatisfiable ones (416)', async () => {
      const file = manifest.files.find((f) => f.name === 'financials.parquet')!;
      const bytes = readFileSync(join(out, file.path));
      const part = await bulk.inject({
        method: 'GET',
        url: `/bulk/${file.name}`,
        headers: { range: 'bytes=4-103' },
      });
      expect(part.statusCode).toBe(206);
      expect(part.headers['content-range']).toBe(`bytes 4-103/${file.bytes}`);
      expect(Buffer.compare(part.rawPayload, bytes.subarray(4, 104))).toBe(0);
      const tail = await bulk.inject({
        method: 'GET',
        url: `/bulk/${file.name}`,
        headers: { range: 'bytes=-8' },
      });
      expect(tail.rawPayload.toString('latin1')).toBe(bytes.subarray(-8).toString('latin1'));
      expect(tail.rawPayload.subarray(-4).toString()).toBe('PAR1');
      const beyond = await bulk.inject({
        method: 'GET',
        url: `/bulk/${file.name}`,
        headers: { range: `bytes=${file.bytes + 10}-` },
      });
      expect(beyond.statusCode).toBe(416);
      expect(beyond.headers['content-type']).toContain('application/problem+json');
      expect(beyond.headers['content-range']).toBe(`bytes */${file.bytes}`);
    });

    it('answers problems: unknown file 404, a bad name 400 (no path outside the export), no export 404 naming the command', async () => {
      const unknown = await bulk.inject({ method: 'GET', url: '/bulk/nothing.parquet' });
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json().type).toBe('/problems/not-found');
      for (const url of [
        '/bulk/..%2Fmanifest.json',
        '/bulk/%2E%2E%2F%2E%2E%2Fetc%2Fpasswd',
        '/bulk/financials.exe',
      ]) {
        const bad = await bulk.inject({ method: 'GET', url });
        expect(bad.statusCode, url).toBe(400);
        expect(bad.json().errors[0].param).toBe('name');
      }
      for (const url of ['/bulk/', '/bulk/financials.parquet']) {
        const none = await get(url);
        expect(none.statusCode).toBe(404);
        expect(none.json().detail).toContain('regdata export --format parquet --out DIR');
        expect(none.json().detail).toContain('EXPORT_DIR');
      }
    });

    it('picks a newer export up without a restart', async () => {
      const before = (await bulk.inject({ method: 'GET', url: '/bulk/' })).json();
      await new Promise((resolve) => setTimeout(resolve, 20));
      const newer = await exportDataset(database.writer, { format: 'csv', out, tables: [EXPORT_TABLES[2]!] });
      const after = (await bulk.inject({ method: 'GET', url: '/bulk/' })).json();
      expect(after.created_at).toBe(newer.created_at);
      expect(after.created_at).not.toBe(before.created_at);
      expect(after.files.map((f: { name: string }) => f.name)).toEqual(['failures.csv']);
      const file = await bulk.inject({ method: 'GET', url: '/bulk/failures.csv' });
      expect(file.statusCode).toBe(200);
      expect(file.headers['content-type']).toBe('text/csv; charset=utf-8');
      // The previous export's files are gone from the directory once the new manifest is in place.
      expect((await bulk.inject({ method: 'GET', url: '/bulk/positions.parquet' })).statusCode).toBe(404);
    });
  });
});
