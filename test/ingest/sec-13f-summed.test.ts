/**
 * `regdata ingest sec-13f` sums each filing's positions while its rows are read (in a worker
 * thread) and derives single-filing manager quarters from those sums. This checks that the result
 * is exactly what the derivation computes from the stored raw rows: a synthetic data set with both
 * amendment kinds, 13F-NT notices, options, PRN and split rows is loaded through the CLI, then every
 * derived table is compared, row for row, with a full re-derivation from the raw rows (security
 * names included: the master is emptied first, so they are named from the filings again). And a
 * failure inside the parsing worker fails the load without changing the served data. The demo
 * sums its filings as it generates them: the small demo's every derived table must equal a
 * re-derivation from its raw rows too.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  COLUMNS,
  coverRow,
  type DatasetFiling,
  submissionRow,
  writeDatasetZip,
  writeFilingsZip,
} from '../../bench/sec-13f-dataset.js';
import { writeSyntheticDataset } from '../../bench/sec-13f-synthetic.js';
import type { DbHandle } from '../../src/db/connect.js';
import { buildHoldingsDemo } from '../../src/demo/holdings/index.js';
import { DEFAULT_DEMO_SEED } from '../../src/demo/index.js';
import { deriveHoldings } from '../../src/ingest/sources/sec/holdings/derive/index.js';
import { readInfoTable } from '../../src/ingest/sources/sec/infotable-reader.js';
import { type Backend, testBackends } from '../helpers/backends.js';
import { DERIVED_HOLDINGS_TABLES, snapshotTables } from '../helpers/derived-snapshot.js';
import { countPositions } from '../helpers/positions.js';
import { ingestJson } from './helpers/cli.js';

const snapshot = (handle: DbHandle) => snapshotTables(handle, DERIVED_HOLDINGS_TABLES);

/** NEW HOLDINGS amendments, in a second data set of the same load, to ten synthetic filers. */
const amendments: DatasetFiling[] = Array.from({ length: 10 }, (_, i) => ({
  accession: `${String(1_000_001 + i).padStart(10, '0')}-26-900000`,
  cik: String(1_000_001 + i),
  formType: '13F-HR/A',
  amendmentType: 'NEW HOLDINGS',
  filingDate: '2026-03-16',
  period: '2025-12-31',
  managerName: `SYNTHETIC CAPITAL MANAGEMENT ${i + 1} LLC`,
  summary: { entryTotal: 2, valueTotal: 3_000 },
  rows: [
    { cusip: '037833100', issuer: 'APPLE INC', value: 1_000, shares: 10 },
    { cusip: '594918104', issuer: 'MICROSOFT CORP', value: 2_000, shares: 5, putCall: 'Call' },
  ],
}));

const dir = mkdtempSync(join(tmpdir(), 'regdata-13f-summed-'));
const zip = join(dir, '01dec2025-28feb2026_form13f.zip');
const later = join(dir, '01mar2026-31may2026_form13f.zip');
/** A data set whose INFOTABLE has no CUSIP column: the parsing worker fails on its first batch. */
const broken = join(dir, '01jun2026-31aug2026_form13f.zip');
beforeAll(async () => {
  await writeSyntheticDataset(zip, { filings: 400, rows: 40_000, securities: 3_000, seed: 7 });
  await writeFilingsZip(later, amendments);
  const filing = {
    ...(amendments[0] as DatasetFiling),
    accession: '0001000001-26-900001',
    formType: '13F-HR',
  };
  await writeDatasetZip(broken, [
    { name: 'SUBMISSION.tsv', header: COLUMNS.SUBMISSION, rows: [submissionRow(filing)] },
    { name: 'COVERPAGE.tsv', header: COLUMNS.COVERPAGE, rows: [coverRow(filing)] },
    { name: 'INFOTABLE.tsv', header: ['ACCESSION_NUMBER', 'VALUE'], rows: [[filing.accession, '1']] },
  ]);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('INFOTABLE parsing without a compiled worker (sources run as TypeScript)', () => {
  it('runs in this thread and gives the records and their rows in flat form', async () => {
    const filings = new Map(amendments.map((f) => [f.accession, f.formType]));
    const batches = [];
    for await (const batch of readInfoTable(readFileSync(later), 'later', filings)) batches.push(batch);
    const records = batches.flatMap((b) => b.records);
    expect(records).toEqual(
      amendments.map((f) => ({ accession: f.accession, part: 0, rows: 2, continues: false })),
    );
    expect(batches.reduce((n, b) => n + b.read, 0)).toBe(20);
    const { fields } = batches[0] as (typeof batches)[number];
    expect(Buffer.from(fields.cusips.slice(0, 18)).toString('latin1')).toBe('037833100594918104');
    expect([...fields.values.slice(0, 2)]).toEqual([1000, 2000]);
    let at = 0;
    const texts = [...fields.textLengths.slice(0, 6)].map((length) => {
      const text = Buffer.from(fields.texts.slice(at, at + length)).toString('utf8');
      at += length;
      return text;
    });
    expect(texts).toEqual(['APPLE INC', 'COM', 'SOLE', 'MICROSOFT CORP', 'COM', 'SOLE']);
  });

  it('counts rows that do not parse as rejections only, and cuts records by filing, not by batch', async () => {
    const filing = amendments[0] as DatasetFiling;
    const good = (i: number) => [
      filing.accession,
      String(i),
      'APPLE INC',
      'COM',
      '037833100',
      '',
      '10',
      '1',
      'SH',
      '',
      'SOLE',
      '',
      '1',
      '0',
      '0',
    ];
    const rows = [
      good(1),
      [...good(2).slice(0, 4), 'BAD', ...good(2).slice(5)],
      good(3),
      [...good(4).slice(0, 6), '12abc', ...good(4).slice(7)],
      ['0000000999-26-000001', ...good(5).slice(1)],
    ];
    // 30,000 rows of one filing span several parsing batches (~12,000 rows each).
    for (let i = 6; i < 30_006; i++) rows.push(good(i));
    const path = join(dir, '01sep2026-30nov2026_form13f.zip');
    await writeDatasetZip(path, [
      { name: 'SUBMISSION.tsv', header: COLUMNS.SUBMISSION, rows: [submissionRow(filing)] },
      { name: 'COVERPAGE.tsv', header: COLUMNS.COVERPAGE, rows: [coverRow(filing)] },
      { name: 'INFOTABLE.tsv', header: COLUMNS.INFOTABLE, rows },
    ]);
    const filings = new Map([[filing.accession, filing.formType]]);
    const batches = [];
    for await (const batch of readInfoTable(readFileSync(path), 'rows', filings)) batches.push(batch);
    expect(batches.length).toBeGreaterThan(2);
    // Read = rows that parsed (stored or refused); the two that did not are rejections, once.
    expect(batches.reduce((n, b) => n + b.read, 0)).toBe(30_003);
    expect(batches.flatMap((b) => b.rejections).map((r) => r.reason)).toEqual([
      'invalid CUSIP "BAD"',
      'not a number: "12abc"',
    ]);
    expect(
      batches.reduce(
        (n, b) => n + (b.rejected.find(([reason]) => reason.includes('not in SUBMISSION'))?.[1] ?? 0),
        0,
      ),
    ).toBe(1);
    // One record, whatever the batches: every cut but the last continues into the next batch.
    const cuts = batches.flatMap((b) => b.records);
    expect(cuts.every((c) => c.accession === filing.accession && c.part === 0)).toBe(true);
    expect(cuts.map((c) => c.continues)).toEqual([...cuts.slice(1).map(() => true), false]);
    expect(cuts.reduce((n, c) => n + c.rows, 0)).toBe(30_002);
  });
});

describe.each(testBackends())('positions summed while reading on $name', (backend: Backend) => {
  it('equal a re-derivation from the raw rows, table for table', async () => {
    const database = await backend.create();
    try {
      const { code, summary, stderr } = await ingestJson(['sec-13f', '--from', zip, '--from', later], {
        DATABASE_URL: database.url,
      });
      expect(code, stderr).toBe(0);
      expect(summary.ok).toBe(true);
      const used = /derived (\d+) manager quarter\(s\), (\d+) of them from the positions summed/.exec(stderr);
      expect(used, stderr).not.toBeNull();
      const [managerQuarters, summed] = [Number(used?.[1]), Number(used?.[2])];
      // Most manager quarters are one filing; amendments adding holdings are derived from raw rows.
      expect(summed).toBeGreaterThan(managerQuarters * 0.9);
      expect(summed).toBeLessThan(managerQuarters);

      // Each filing is stored as one record (none reaches MAX_ROWS_PER_PART), however it was batched.
      const { rows: split } = await sql`
        select accession_number from info_tables_13f group by accession_number having count(*) > 1
      `.execute(database.writer.db);
      expect(split).toEqual([]);

      const loaded = await snapshot(database.writer);
      expect(await countPositions(database.writer.db)).toBeGreaterThan(30_000);
      const { writer } = database;
      await writer.db.transaction().execute(async (trx) => {
        await trx.deleteFrom('securities').execute();
        await deriveHoldings(writer, undefined, trx);
      });
      const rederived = await snapshot(writer);
      for (const table of DERIVED_HOLDINGS_TABLES) expect(rederived[table], table).toEqual(loaded[table]);

      // A failure in the parsing worker fails the load, and the served data stays as it was.
      const failed = await ingestJson(['sec-13f', '--from', broken], { DATABASE_URL: database.url });
      expect(failed.code).not.toBe(0);
      expect(failed.summary.ok).toBe(false);
      expect(failed.summary.error).toMatch(/INFOTABLE\.tsv: missing column\(s\) CUSIP/);
      expect(await snapshot(writer)).toEqual(rederived);
    } finally {
      await database.drop();
    }
  }, 120_000);
});

describe.each(testBackends())('the demo, summed while generated, on $name', (backend: Backend) => {
  it('equals a re-derivation from its raw rows, every derived table', async () => {
    const database = await backend.create();
    try {
      const { writer } = database;
      const lines: string[] = [];
      await buildHoldingsDemo(writer, { seed: DEFAULT_DEMO_SEED, scale: 'small', log: (l) => lines.push(l) });
      const used = /(\d+) of (\d+) manager quarters from the positions summed/.exec(lines.join('\n'));
      expect(used, lines.join('\n')).not.toBeNull();
      const [summed, managerQuarters] = [Number(used?.[1]), Number(used?.[2])];
      // Every manager quarter but those with NEW HOLDINGS amendments comes from the sums.
      expect(summed).toBeGreaterThan(managerQuarters * 0.9);
      expect(summed).toBeLessThan(managerQuarters);

      const built = await snapshotTables(writer, DERIVED_HOLDINGS_TABLES);
      expect(built.manager_portfolios?.length).toBeGreaterThan(5_000);
      expect(built.changes_by_manager?.length).toBeGreaterThan(5_000);
      // Not equal because both are empty: the demo has splits, crowding and smart money.
      for (const table of ['crowded_days', 'security_splits', 'split_spans', 'smart_money', 'filing_days'])
        expect(built[table]?.length, table).toBeGreaterThan(0);
      await writer.db.transaction().execute((trx) => deriveHoldings(writer, undefined, trx));
      const rederived = await snapshotTables(writer, DERIVED_HOLDINGS_TABLES);
      for (const table of DERIVED_HOLDINGS_TABLES) expect(rederived[table], table).toEqual(built[table]);
    } finally {
      await database.drop();
    }
  }, 180_000);
});
