/**
 * The stored records of a data set's parsed INFOTABLE batches are the same bytes whichever thread
 * encodes them: the loading thread from each batch's fields, or the parsing worker (encodeRecords)
 * while the loading thread is behind, in any mix from batch to batch, records spanning batches
 * included. Checked in this thread for every mix, against the rows written; and through the
 * compiled worker (the CLI's transpiled build) with a loading side that acknowledges batches late,
 * so the worker encodes all but the first few.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DatasetFiling, writeFilingsZip } from '../../bench/sec-13f-dataset.js';
import type { InfoTables13fTable } from '../../src/holdings/tables.js';
import {
  decodeInfoRows,
  encodeRecords,
  FORMAT,
  InfoRowEncoder,
  type InfoRowFields,
  rowTextBytes,
} from '../../src/ingest/sources/sec/holdings/info-row-codec.js';
import { MAX_ROWS_PER_PART } from '../../src/ingest/sources/sec/holdings/info-tables.js';
import { ParsedRecords } from '../../src/ingest/sources/sec/holdings/parsed-records.js';
import type { ParsedBatch } from '../../src/ingest/sources/sec/infotable-parse.js';
import { readInfoTable } from '../../src/ingest/sources/sec/infotable-reader.js';
import type { WorkerMessage } from '../../src/ingest/sources/sec/infotable-worker.js';
import { random } from '../helpers/random.js';
import { buildCli } from '../ingest/helpers/cli.js';

/**
 * Rows per filing: several span the parser's 10,000-row batches, some are tiny, and one is more
 * than a record holds (MAX_ROWS_PER_PART: two parts).
 */
const ROWS = [1, 23_456, 3, 9_999, 10_001, 2, 30_000, 7, 15_000, 1, 12_345, 4, MAX_ROWS_PER_PART + 1, 5];
const ISSUERS = ['APPLE INC', 'Société Générale', '株式会社 ABC', 'X', 'BERKSHIRE HATHAWAY INC DEL'];
/** '' is filed blank: stored as null (no text bytes). */
const DISCRETIONS = ['SOLE', 'DFND', 'OTR', ''];
const PUT_CALLS = ['', 'Put', 'Call'];

const filings: DatasetFiling[] = ROWS.map((count, f) => ({
  accession: `${String(2_000_001 + f).padStart(10, '0')}-26-000001`,
  cik: String(2_000_001 + f),
  formType: '13F-HR',
  filingDate: '2026-02-14',
  period: '2025-12-31',
  managerName: `PARSED RECORDS ${f} LP`,
  summary: { entryTotal: count, valueTotal: 0 },
  rows: Array.from({ length: count }, (_, i) => ({
    cusip: `${String((f * 7919 + i * 31 + 1) % 1_000_000).padStart(8, '0')}${i % 10}`,
    issuer: ISSUERS[(f + i) % ISSUERS.length] as string,
    titleOfClass: i % 5 === 0 ? '' : i % 3 === 0 ? 'CL A' : 'COM',
    value: (i * 977) % 50_000,
    shares: i % 11 === 0 ? 999_999_999_999_999 : i * 3 + 1,
    shareType: i % 13 === 0 ? 'PRN' : 'SH',
    putCall: PUT_CALLS[i % 7 === 0 ? 1 + (i % 2) : 0],
    discretion: DISCRETIONS[i % DISCRETIONS.length],
  })),
}));

/** A filing's rows as the store decodes them (the written values; voting as infoRow writes it). */
function writtenRows(filing: DatasetFiling): InfoRowFields[] {
  return filing.rows.map((row) => {
    const shares = Number(row.shares);
    const putCall = row.putCall ? row.putCall.toUpperCase() : null;
    // biome-ignore format: one row
    return [row.cusip, row.issuer, row.titleOfClass || null, Number(row.value), shares, row.shareType ?? 'SH',
      putCall, row.discretion || null, shares, 0, 0];
  });
}

const dir = mkdtempSync(join(tmpdir(), 'regdata-parsed-records-'));
const zipPath = join(dir, '01dec2025-28feb2026_form13f.zip');
const loadFilings = new Map(filings.map((f) => [f.accession, f.formType]));
const batches: ParsedBatch[] = [];
beforeAll(async () => {
  await writeFilingsZip(zipPath, filings);
  // Sources run as TypeScript here: the same parser, in this thread.
  for await (const batch of readInfoTable(readFileSync(zipPath), 'records', loadFilings)) batches.push(batch);
}, 60_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The records of `parsed` as the loader builds them (load-13f.ts). */
function assemble(parsed: readonly ParsedBatch[]): InfoTables13fTable[] {
  const records = new ParsedRecords();
  const out: InfoTables13fTable[] = [];
  for (const batch of parsed) {
    let at = 0;
    let textAt = 0;
    batch.records.forEach((cut, j) => {
      const closed = records.add(batch, j, at, textAt);
      for (let k = 0; k < cut.rows; k++) textAt += rowTextBytes(batch.fields, at + k);
      at += cut.rows;
      if (closed) out.push(closed);
    });
  }
  records.end();
  return out;
}

/** `batch` as the worker posts it when it encodes. */
const encodedBatch = (batch: ParsedBatch): ParsedBatch => ({
  ...batch,
  encoded: encodeRecords(
    batch.fields,
    batch.records.map((cut) => cut.rows),
  ),
});

/** Records as comparable values (their bytes as hex). */
const comparable = (records: readonly InfoTables13fTable[]) =>
  records.map((r) => ({ ...r, rows: Buffer.from(r.rows).toString('hex') }));

describe('stored records of parsed INFOTABLE batches', () => {
  it('hold the rows written, one record per filing, encoded in this thread', () => {
    expect(batches.length).toBeGreaterThanOrEqual(8);
    expect(batches.some((b) => b.records.some((cut) => cut.continues))).toBe(true);
    const records = assemble(batches);
    // A filing's parts, MAX_ROWS_PER_PART rows each but the last.
    const parts = (f: DatasetFiling) =>
      Array.from({ length: Math.ceil(f.rows.length / MAX_ROWS_PER_PART) }, (_, part) => part);
    expect(records.map((r) => [r.accession_number, r.part, r.row_count])).toEqual(
      filings.flatMap((f) =>
        parts(f).map((part) => [
          f.accession,
          part,
          Math.min(MAX_ROWS_PER_PART, f.rows.length - part * MAX_ROWS_PER_PART),
        ]),
      ),
    );
    let at = 0;
    for (const filing of filings) {
      const decoded = parts(filing).flatMap(() => {
        const record = records[at++] as InfoTables13fTable;
        expect(record.rows[0]).toBe(FORMAT);
        return decodeInfoRows(record.rows);
      });
      expect(decoded).toEqual(writtenRows(filing));
    }
  });

  it('are the same bytes when any mix of batches comes encoded by the worker', () => {
    const expected = comparable(assemble(batches));
    const next = random(19);
    const mixes: ((i: number) => boolean)[] = [
      () => true,
      (i) => i % 2 === 0,
      (i) => i % 2 === 1,
      (i) => i % 3 !== 0,
      () => next() < 0.5,
      () => next() < 0.5,
    ];
    for (const encodes of mixes) {
      const mixed = batches.map((batch, i) => (encodes(i) ? encodedBatch(batch) : batch));
      expect(comparable(assemble(mixed))).toEqual(expected);
    }
  });

  it('refuses an encoded fragment that does not begin a record', () => {
    const encoder = new InfoRowEncoder();
    expect(() => encoder.addEncoded(Uint8Array.of(0, 1, 2), 1)).toThrow(/must begin with FORMAT/);
  });
});

describe('the compiled INFOTABLE worker', () => {
  let worker: URL;
  beforeAll(async () => {
    const cli = await buildCli();
    worker = pathToFileURL(join(cli, '..', 'ingest/sources/sec/infotable-worker.js'));
  }, 180_000);

  it('encodes the records itself while batches wait unacknowledged, giving the same records', async () => {
    // Its own memory, moved to the worker as the reader moves a data set's.
    const zip = Buffer.from(readFileSync(zipPath));
    const running = new Worker(worker, {
      workerData: { zip, name: 'records', filings: loadFilings },
      transferList: [zip.buffer as ArrayBuffer],
    });
    const received: ParsedBatch[] = [];
    // A loading side that is behind: it acknowledges a batch only once five more wait (the worker
    // stops at eight, so it never waits here).
    let acknowledged = 0;
    await new Promise<void>((resolve, reject) => {
      running.on('message', (message: WorkerMessage) => {
        if (message.type === 'error') return reject(new Error(message.message));
        if (message.type === 'done') return resolve();
        received.push(message.batch);
        while (received.length - acknowledged > 5) {
          acknowledged += 1;
          running.postMessage('ack');
        }
      });
      running.on('error', reject);
    });
    await running.terminate();
    const encoded = received.map((batch) => batch.encoded !== undefined);
    // Batch k goes with k unacknowledged until five wait: from the fifth on, four or more.
    expect(encoded).toEqual(received.map((_, k) => k >= 4));
    expect(received.map((b) => b.records)).toEqual(batches.map((b) => b.records));
    expect(comparable(assemble(received))).toEqual(comparable(assemble(batches)));
  });
});
