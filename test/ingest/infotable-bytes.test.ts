/**
 * INFOTABLE read from its bytes (infotable-bytes.ts, scanDatasetInfoTable) against the string path
 * it replaced: each line decoded, split at tabs (readTsvBatches) and normalised (normaliseInfoRow).
 * Rows are real-shaped with each field often mutated (case, padding, separators, bad values,
 * non-ASCII and invalid UTF-8 text, missing and extra fields, CRLF, blank lines, a byte-order
 * mark), and the file is fed in chunks of every size, so lines and characters straddle them.
 */
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { codeOf } from '../../src/holdings/portfolio-pack.js';
import { normaliseInfoRow, scanDatasetInfoTable } from '../../src/ingest/sources/sec/dataset-records.js';
import type { DatasetZip } from '../../src/ingest/sources/sec/dataset-zip.js';
import { infoRowRefusal } from '../../src/ingest/sources/sec/info-row-accept.js';
import { LineFields, readPlainRow, readPlainTexts } from '../../src/ingest/sources/sec/infotable-bytes.js';
import { parseInfoTable } from '../../src/ingest/sources/sec/infotable-parse.js';
import type { RowFields } from '../../src/ingest/sources/sec/row-fields.js';
import { headerColumns, readTsvBatches } from '../../src/ingest/sources/sec/tsv.js';
import type { InfoTableRow, Rejection } from '../../src/ingest/sources/sec/types.js';
import { random } from '../helpers/random.js';

// biome-ignore format: SEC's column order
const COLUMNS = ['ACCESSION_NUMBER', 'INFOTABLE_SK', 'NAMEOFISSUER', 'TITLEOFCLASS', 'CUSIP', 'FIGI', 'VALUE',
  'SSHPRNAMT', 'SSHPRNAMTTYPE', 'PUTCALL', 'INVESTMENTDISCRETION', 'OTHERMANAGER', 'VOTING_AUTH_SOLE',
  'VOTING_AUTH_SHARED', 'VOTING_AUTH_NONE'];

// "A", a stray byte, a lead byte cut off, "B".
const INVALID_UTF8 = Buffer.from([0x41, 0xff, 0xc3, 0x42]);
// biome-ignore format: one list
const numbers = ['0', '7', '905560000', '999999999999999', '1000000000000000', '9999999999999999', '1,234', ' 12 ', '', ' ', 'n/a', '-5', '1.5', '12a'];

/** Per column: the plain spellings (most rows), then the others. */
// biome-ignore format: one column a line
const VARIANTS: Record<string, (string | Buffer)[]> = {
  NAMEOFISSUER: ['APPLE INC', 'BERKSHIRE HATHAWAY INC DEL', '', '  ', ' PADDED ', 'Société Générale', '株式会社', 'X\u00a0', '\ufeffBOM', '\u2028X', 'X\u3000', '\u000bX', 'X\u0085', ' \u00a0 ', ' LEADING', 'TRAILING ', INVALID_UTF8],
  TITLEOFCLASS: ['COM', 'CL B', '', ' SPON ADR ', 'Ordinary Shs €', INVALID_UTF8],
  CUSIP: ['037833100', '084670702', 'G0403H108', '000000000', '037833ab0', ' 037833100', '12345', '', '0378331000', '03783310É'],
  FIGI: ['', 'BBG000B9XRY4', ' ', 'bbg000b9xry4 '],
  VALUE: numbers,
  SSHPRNAMT: numbers,
  SSHPRNAMTTYPE: ['SH', 'PRN', 'sh', ' SH', '', 'XX', 'Prn', 'SH '],
  PUTCALL: ['', 'Put', 'Call', 'PUT', 'CALL', 'put', ' Call', 'X', 'CALL '],
  INVESTMENTDISCRETION: ['SOLE', 'DFND', 'OTR', 'sole', '', ' OTR', 'XYZ', 'Sole'],
  OTHERMANAGER: ['', '1', '1,2,3', ' ', '01'],
  VOTING_AUTH_SOLE: numbers,
  VOTING_AUTH_SHARED: numbers,
  VOTING_AUTH_NONE: numbers,
};
/** How many of each column's spellings are plain. */
// biome-ignore format: one object
const PLAIN: Record<string, number> = { NAMEOFISSUER: 2, TITLEOFCLASS: 2, CUSIP: 4, FIGI: 2, VALUE: 4, SSHPRNAMT: 4, SSHPRNAMTTYPE: 2, PUTCALL: 5, INVESTMENTDISCRETION: 3, OTHERMANAGER: 3, VOTING_AUTH_SOLE: 4, VOTING_AUTH_SHARED: 4, VOTING_AUTH_NONE: 4 };

const ACCESSIONS = ['0000950123-24-001234', '0001067983-24-000002', ' 0001067983-24-000003', '12345', ''];

/** A file of `count` rows: mostly plain, each field mutated with probability `mutate`. */
function infoTableFile(seed: number, count: number, mutate: number, columns = COLUMNS): Buffer {
  const next = random(seed);
  const pick = <T>(list: readonly T[], plain = list.length) =>
    list[Math.floor(next() * (next() < mutate ? list.length : plain))] as T;
  const parts: Buffer[] = [];
  if (next() < 0.5) parts.push(Buffer.from([0xef, 0xbb, 0xbf]));
  parts.push(Buffer.from(`${columns.join('\t')}\n`));
  let accession = 0;
  for (let i = 0; i < count; i++) {
    // Filings run on for a while; now and then the next one, rarely a bad accession number.
    if (next() < 0.02) accession = next() < 0.8 ? (accession + 1) % 2 : 2 + Math.floor(next() * 3);
    const fields: (string | Buffer)[] = columns.map((column) => {
      if (column === 'ACCESSION_NUMBER') return ACCESSIONS[accession] as string;
      if (column === 'INFOTABLE_SK') return String(i);
      const variants = VARIANTS[column] as (string | Buffer)[];
      return pick(variants, PLAIN[column]);
    });
    const shape = next();
    if (shape < 0.01)
      fields.length = Math.floor(next() * fields.length); // a line cut short
    else if (shape < 0.02) fields.push('extra');
    else if (shape < 0.022)
      fields.push(...Array.from({ length: 60 }, () => 'more')); // past 64 fields
    else if (shape < 0.025) fields.splice(0, fields.length, next() < 0.5 ? '' : ' '); // blank lines
    const line: Buffer[] = [];
    fields.forEach((field, k) => {
      if (k > 0) line.push(Buffer.from('\t'));
      line.push(typeof field === 'string' ? Buffer.from(field) : field);
    });
    const last = i === count - 1 && next() < 0.5;
    line.push(Buffer.from(last ? '' : next() < 0.1 ? '\r\n' : '\n'));
    parts.push(...line);
  }
  return Buffer.concat(parts);
}

/** The file as a zip member read in chunks of random sizes (1 to `largest` bytes). */
function zipOf(file: Buffer, seed: number, largest: number): DatasetZip {
  const next = random(seed);
  const chunks: Buffer[] = [];
  for (let at = 0; at < file.length; ) {
    const size = 1 + Math.floor(next() * largest);
    chunks.push(file.subarray(at, at + size));
    at += size;
  }
  return {
    members: ['INFOTABLE.tsv'],
    has: () => true,
    size: () => file.length,
    open: async () => Readable.from(chunks),
    close: () => {},
  };
}

async function scanned(zip: DatasetZip) {
  const rows: InfoTableRow[] = [];
  const rejections: Rejection[] = [];
  let counted = 0;
  for await (const parsed of scanDatasetInfoTable(zip, rejections, (row) => rows.push({ ...row })))
    counted += parsed;
  return { rows, rejections, counted };
}

/** The string path, written out here: decoded lines split at tabs, then normaliseInfoRow. */
async function expected(file: Buffer) {
  const rows: InfoTableRow[] = [];
  const rejections: Rejection[] = [];
  let lastRaw: string | undefined;
  let lastAccession = '';
  for await (const { columns, rows: lines } of readTsvBatches(Readable.from([file]))) {
    const field = (row: string[], name: string) => row[columns.get(name) ?? -1];
    for (const row of lines) {
      const raw = field(row, 'ACCESSION_NUMBER');
      try {
        if (raw !== lastRaw) {
          const text = (raw ?? '').trim();
          if (!/^\d{10}-\d{2}-\d{6}$/.test(text))
            throw new Error(`invalid accession number ${JSON.stringify(raw)}`);
          lastAccession = text;
          lastRaw = raw;
        }
        // biome-ignore format: one field a line
        rows.push(normaliseInfoRow({ accession: lastAccession, cusip: field(row, 'CUSIP'),
          issuer: field(row, 'NAMEOFISSUER'), titleOfClass: field(row, 'TITLEOFCLASS'), figi: field(row, 'FIGI'),
          value: field(row, 'VALUE'), shares: field(row, 'SSHPRNAMT'), shareType: field(row, 'SSHPRNAMTTYPE'),
          putCall: field(row, 'PUTCALL'), discretion: field(row, 'INVESTMENTDISCRETION'),
          otherManager: field(row, 'OTHERMANAGER'), votingSole: field(row, 'VOTING_AUTH_SOLE'),
          votingShared: field(row, 'VOTING_AUTH_SHARED'), votingNone: field(row, 'VOTING_AUTH_NONE') }));
      } catch (error) {
        rejections.push({ where: `INFOTABLE ${raw ?? '?'}`, reason: (error as Error).message });
      }
    }
  }
  return { rows, rejections, counted: rows.length };
}

describe('INFOTABLE read from its bytes', () => {
  it('gives the string path its rows and rejections, whatever the chunks', async () => {
    for (const [seed, mutate] of [
      [1, 0.05],
      [2, 0.3],
      [3, 1],
    ] as const) {
      const file = infoTableFile(seed, 4000, mutate);
      const want = await expected(file);
      expect(want.rows.length).toBeGreaterThan(200);
      expect(want.rejections.length).toBeGreaterThan(10);
      for (const largest of [3, 7, 300, 70_000])
        expect(await scanned(zipOf(file, seed, largest))).toEqual(want);
    }
  });

  it('reads columns by name, without FIGI and in another order', async () => {
    const columns = [...COLUMNS.filter((c) => c !== 'FIGI')].reverse();
    const file = infoTableFile(4, 2000, 0.1, columns);
    const want = await expected(file);
    expect(want.rows.length).toBeGreaterThan(1000);
    expect(await scanned(zipOf(file, 4, 5000))).toEqual(want);
  });

  it('reads nearly every plain row from its bytes, exactly as normaliseInfoRow', async () => {
    const file = infoTableFile(5, 3000, 0);
    const text = file.toString('utf8');
    const lines = text
      .replace(/^\ufeff/, '')
      .split('\n')
      .slice(1)
      .filter((line) => line !== '');
    const columns = headerColumns(text.split('\n')[0] as string);
    const at = (name: string) => columns.get(name) ?? -1;
    // biome-ignore format: one column a pair
    const index = { accession: at('ACCESSION_NUMBER'), issuer: at('NAMEOFISSUER'), title: at('TITLEOFCLASS'),
      cusip: at('CUSIP'), figi: at('FIGI'), value: at('VALUE'), shares: at('SSHPRNAMT'), type: at('SSHPRNAMTTYPE'),
      putCall: at('PUTCALL'), discretion: at('INVESTMENTDISCRETION'), other: at('OTHERMANAGER'),
      sole: at('VOTING_AUTH_SOLE'), shared: at('VOTING_AUTH_SHARED'), none: at('VOTING_AUTH_NONE') };
    const fields = new LineFields(64);
    let plain = 0;
    for (const line of lines) {
      const bytes = Buffer.from(line.replace(/\r$/, ''));
      // A line of more than 64 fields goes the string path whole.
      if (!fields.split(bytes, 0, bytes.length)) continue;
      const row = {} as InfoTableRow;
      if (!readPlainRow(fields, index, 'A', row)) continue;
      readPlainTexts(fields, index, row);
      plain += 1;
      const split = line.replace(/\r$/, '').split('\t');
      const field = (k: number) => split[k];
      // biome-ignore format: one field a line
      expect(row).toEqual(normaliseInfoRow({ accession: 'A', cusip: field(index.cusip), issuer: field(index.issuer),
        titleOfClass: field(index.title), figi: field(index.figi), value: field(index.value),
        shares: field(index.shares), shareType: field(index.type), putCall: field(index.putCall),
        discretion: field(index.discretion), otherManager: field(index.other), votingSole: field(index.sole),
        votingShared: field(index.shared), votingNone: field(index.none) }));
    }
    // Plain spellings only, but some lines are cut short or blank: those go the string path.
    expect(plain).toBeGreaterThan(0.95 * lines.length);
  });

  it('gives the loading thread what the string path gives, through the parsing worker’s columns', async () => {
    // Filings of the load: one stored, one a notice (its rows skipped); the third is not in the load.
    const filings = new Map([
      ['0000950123-24-001234', '13F-HR'],
      ['0001067983-24-000002', '13F-NT'],
    ]);
    for (const [seed, mutate] of [
      [6, 0.1],
      [7, 0.5],
    ] as const) {
      const file = infoTableFile(seed, 4000, mutate);
      const want = await expected(file);
      const refusals = new Map<string, number>();
      const stored = want.rows.filter((row) => {
        const refusal = infoRowRefusal(row, filings.get(row.accession));
        if (refusal === null) return true;
        const reason = 'skip' in refusal ? refusal.skip : refusal.reject;
        refusals.set(reason, (refusals.get(reason) ?? 0) + 1);
        return false;
      });
      expect(stored.length).toBeGreaterThan(100);
      for (const largest of [5, 70_000]) {
        const got: unknown[] = [];
        const counted = new Map<string, number>();
        const rejections: Rejection[] = [];
        for await (const batch of parseInfoTable(zipOf(file, seed, largest), filings)) {
          for (const [reason, n] of [...batch.skipped, ...batch.rejected])
            counted.set(reason, (counted.get(reason) ?? 0) + n);
          rejections.push(...batch.rejections);
          got.push(...rowsOf(batch.fields));
        }
        expect(rejections).toEqual(want.rejections);
        expect(counted).toEqual(refusals);
        // biome-ignore format: one row
        expect(got).toEqual(stored.map((row) => [row.cusip, codeOf(row.shareType as string, row.putCall), row.value,
          row.shares, row.votingSole, row.votingShared, row.votingNone, row.issuer, row.titleOfClass, row.discretion]));
      }
    }
  });
});

/** A parsed batch's rows back as values: CUSIP, code, numbers, then the three texts decoded. */
function rowsOf(fields: RowFields): unknown[][] {
  const texts: (string | null)[] = [];
  let at = 0;
  for (const length of fields.textLengths) {
    texts.push(length < 0 ? null : Buffer.from(fields.texts.subarray(at, at + length)).toString('utf8'));
    at += Math.max(length, 0);
  }
  const vote = (v: number) => (Number.isNaN(v) ? null : v);
  return Array.from(fields.codes, (code, i) => [
    Buffer.from(fields.cusips.subarray(9 * i, 9 * i + 9)).toString('latin1'),
    code,
    fields.values[i],
    fields.shares[i],
    vote(fields.voting[3 * i] as number),
    vote(fields.voting[3 * i + 1] as number),
    vote(fields.voting[3 * i + 2] as number),
    ...texts.slice(3 * i, 3 * i + 3),
  ]);
}
