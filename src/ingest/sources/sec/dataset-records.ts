/**
 * Turns a data set's TSV members into Filing13F and InfoTableRow records. The filing-level members
 * (a few thousand rows) are joined in memory by accession number; INFOTABLE (millions of rows) is
 * streamed in batches.
 */
import type { DatasetZip } from './dataset-zip.js';
import { type InfoTableColumns, LineFields, readPlainRow, readPlainTexts } from './infotable-bytes.js';
import { headerColumns, readTsvBatches } from './tsv.js';
import type { Filing13F, InfoTableRow, PlainInfoRow, Rejection } from './types.js';
import { parseCik, parseFlag, parseSecDate, parseWholeNumber, textOrNull } from './values.js';

type Row = Record<string, string | undefined>;

/** Reads a small member as objects keyed by upper-case column name. */
async function readMember(zip: DatasetZip, member: string, required: string[]): Promise<Row[]> {
  if (!zip.has(member)) return [];
  const out: Row[] = [];
  for await (const { columns, rows } of readTsvBatches(await zip.open(member))) {
    const missing = required.filter((name) => !columns.has(name));
    if (missing.length > 0) throw new Error(`${member}: missing column(s) ${missing.join(', ')}`);
    const names = [...columns.entries()];
    for (const row of rows) {
      const record: Row = {};
      for (const [name, index] of names) record[name] = row[index];
      out.push(record);
    }
  }
  return out;
}

function accessionOf(raw: string | undefined): string {
  const text = (raw ?? '').trim();
  if (!/^\d{10}-\d{2}-\d{6}$/.test(text)) throw new Error(`invalid accession number ${JSON.stringify(raw)}`);
  return text;
}

function filingFrom(submission: Row, cover: Row | undefined, summary: Row | undefined): Filing13F {
  const filingDate = parseSecDate(submission.FILING_DATE);
  const period = parseSecDate(submission.PERIODOFREPORT) ?? parseSecDate(cover?.REPORTCALENDARORQUARTER);
  if (!filingDate) throw new Error('FILING_DATE is empty');
  if (!period) throw new Error('PERIODOFREPORT is empty');
  return {
    accession: accessionOf(submission.ACCESSION_NUMBER),
    cik: parseCik(submission.CIK),
    formType: (submission.SUBMISSIONTYPE ?? '').trim().toUpperCase(),
    filingDate,
    period,
    isAmendment: parseFlag(cover?.ISAMENDMENT) ?? false,
    amendmentNo: parseWholeNumber(cover?.AMENDMENTNO),
    amendmentType: textOrNull(cover?.AMENDMENTTYPE)?.toUpperCase() ?? null,
    managerName: textOrNull(cover?.FILINGMANAGER_NAME),
    street1: textOrNull(cover?.FILINGMANAGER_STREET1),
    street2: textOrNull(cover?.FILINGMANAGER_STREET2),
    city: textOrNull(cover?.FILINGMANAGER_CITY),
    stateOrCountry: textOrNull(cover?.FILINGMANAGER_STATEORCOUNTRY)?.toUpperCase() ?? null,
    zipCode: textOrNull(cover?.FILINGMANAGER_ZIPCODE),
    reportType: textOrNull(cover?.REPORTTYPE)?.toUpperCase() ?? null,
    form13fFileNumber: textOrNull(cover?.FORM13FFILENUMBER),
    crdNumber: textOrNull(cover?.CRDNUMBER),
    secFileNumber: textOrNull(cover?.SECFILENUMBER),
    tableEntryTotal: parseWholeNumber(summary?.TABLEENTRYTOTAL),
    tableValueTotal: parseWholeNumber(summary?.TABLEVALUETOTAL),
    isConfidentialOmitted: parseFlag(summary?.ISCONFIDENTIALOMITTED),
  };
}

/** All filings of a data set, keyed by accession number; bad rows are rejected with a reason. */
export async function readDatasetFilings(
  zip: DatasetZip,
  rejections: Rejection[],
): Promise<Map<string, Filing13F>> {
  const submissions = await readMember(zip, 'SUBMISSION.tsv', [
    'ACCESSION_NUMBER',
    'FILING_DATE',
    'SUBMISSIONTYPE',
    'CIK',
    'PERIODOFREPORT',
  ]);
  const byAccession = (rows: Row[]) => new Map(rows.map((row) => [row.ACCESSION_NUMBER?.trim(), row]));
  const covers = byAccession(await readMember(zip, 'COVERPAGE.tsv', ['ACCESSION_NUMBER']));
  const summaries = byAccession(await readMember(zip, 'SUMMARYPAGE.tsv', ['ACCESSION_NUMBER']));
  const filings = new Map<string, Filing13F>();
  for (const submission of submissions) {
    const key = submission.ACCESSION_NUMBER?.trim();
    try {
      const filing = filingFrom(submission, covers.get(key), summaries.get(key));
      filings.set(filing.accession, filing);
    } catch (error) {
      rejections.push({ where: `SUBMISSION ${key ?? '?'}`, reason: (error as Error).message });
    }
  }
  return filings;
}

const INFOTABLE_REQUIRED = ['ACCESSION_NUMBER', 'CUSIP', 'VALUE', 'SSHPRNAMT', 'SSHPRNAMTTYPE'];

/** Fields a line may have before it is read by the string path (INFOTABLE has ~15 columns). */
const MAX_FIELDS = 64;
/** Rows parsed between yields. */
const YIELD_ROWS = 4096;

function columnsOf(columns: Map<string, number>): InfoTableColumns {
  const missing = INFOTABLE_REQUIRED.filter((name) => !columns.has(name));
  if (missing.length > 0) throw new Error(`INFOTABLE.tsv: missing column(s) ${missing.join(', ')}`);
  const at = (name: string) => columns.get(name) ?? -1;
  return {
    accession: at('ACCESSION_NUMBER'),
    issuer: at('NAMEOFISSUER'),
    title: at('TITLEOFCLASS'),
    cusip: at('CUSIP'),
    figi: at('FIGI'),
    value: at('VALUE'),
    shares: at('SSHPRNAMT'),
    type: at('SSHPRNAMTTYPE'),
    putCall: at('PUTCALL'),
    discretion: at('INVESTMENTDISCRETION'),
    other: at('OTHERMANAGER'),
    sole: at('VOTING_AUTH_SOLE'),
    shared: at('VOTING_AUTH_SHARED'),
    none: at('VOTING_AUTH_NONE'),
  };
}

/** What a scan of INFOTABLE hands each row that parsed to. */
export interface InfoRowSink {
  /** A row the string path read (the same object every time: copy what you keep). */
  row(row: InfoTableRow): void;
  /**
   * A plain row read from its bytes: every field but the free texts in `row` (the same object every
   * time), the texts (issuer, class, FIGI, other manager) still in the line, `fields` at `columns`.
   */
  plain(row: PlainInfoRow, fields: LineFields, columns: InfoTableColumns): void;
}

/**
 * Streams INFOTABLE into `onRow`, one parsed row at a time and always the same object (millions of
 * rows, no garbage for this step: copy what you keep). Yields, after each few thousand rows, how
 * many of them parsed (the others are in `rejections`).
 */
export function scanDatasetInfoTable(
  zip: DatasetZip,
  rejections: Rejection[],
  onRow: (row: InfoTableRow) => void,
): AsyncGenerator<number> {
  return scanInfoTableRows(zip, rejections, {
    row: onRow,
    plain(row, fields, columns) {
      const full = row as InfoTableRow;
      readPlainTexts(fields, columns, full);
      onRow(full);
    },
  });
}

/**
 * scanDatasetInfoTable for a sink that takes plain rows with their texts still in the line. Lines
 * are read from the inflated bytes (infotable-bytes.ts); a row that is not plain is decoded and
 * read as readTsvBatches would give it.
 */
export async function* scanInfoTableRows(
  zip: DatasetZip,
  rejections: Rejection[],
  sink: InfoRowSink,
): AsyncGenerator<number> {
  const fields = new LineFields(MAX_FIELDS);
  const parsed = emptyInfoRow();
  let header: Map<string, number> | null = null;
  let index: InfoTableColumns | null = null;
  let infoRow: ReturnType<typeof rawRowReader> | null = null;
  // A filing's rows are contiguous: each accession number is validated once, and then recognised
  // by its bytes.
  let lastRaw: string | undefined;
  let lastRawBytes: Uint8Array | null = null;
  let lastAccession = '';
  let parsedRows = 0;

  const reject = (raw: string | undefined, error: unknown) =>
    rejections.push({ where: `INFOTABLE ${raw ?? '?'}`, reason: (error as Error).message });

  /** The string path, on the decoded line split as readTsvBatches splits it. */
  const readText = (columns: InfoTableColumns, line: string): boolean => {
    const row = line.split('\t');
    try {
      const raw = row[columns.accession];
      if (raw !== lastRaw) {
        lastAccession = accessionOf(raw);
        lastRaw = raw;
        lastRawBytes = null;
      }
      (infoRow as NonNullable<typeof infoRow>)(row, lastAccession, parsed);
      return true;
    } catch (error) {
      reject(row[columns.accession], error);
      return false;
    }
  };

  /** The line decoded, through the string path, to the sink. */
  const readDecoded = (columns: InfoTableColumns, bytes: Buffer, start: number, end: number): boolean => {
    if (!readText(columns, bytes.toString('utf8', start, end))) return false;
    sink.row(parsed);
    return true;
  };

  const readRow = (columns: InfoTableColumns, bytes: Buffer, start: number, end: number): boolean => {
    if (!fields.split(bytes, start, end)) return readDecoded(columns, bytes, start, end);
    if (lastRawBytes === null || !fields.equals(columns.accession, lastRawBytes)) {
      const raw = fields.text(columns.accession);
      if (raw !== lastRaw) {
        try {
          lastAccession = accessionOf(raw);
        } catch (error) {
          reject(raw, error);
          return false;
        }
        lastRaw = raw;
      }
      lastRawBytes = raw === undefined ? null : fields.copy(columns.accession);
    }
    if (!readPlainRow(fields, columns, lastAccession, parsed)) return readDecoded(columns, bytes, start, end);
    sink.plain(parsed, fields, columns);
    return true;
  };

  const line = (bytes: Buffer, start: number, end: number) => {
    const stop = end > start && bytes[end - 1] === 13 ? end - 1 : end;
    if (header === null) {
      header = headerColumns(bytes.toString('utf8', start, stop));
      return;
    }
    if (stop === start) return;
    if (index === null) {
      index = columnsOf(header);
      infoRow = rawRowReader(index);
    }
    if (readRow(index, bytes, start, stop)) parsedRows += 1;
  };

  // The bytes since the last newline, joined (with the chunk that ends the line) only once a
  // chunk brings the line's end: a line long over many chunks is copied once, not once per chunk.
  let pending: Buffer[] = [];
  for await (const read of (await zip.open('INFOTABLE.tsv')) as AsyncIterable<Buffer | string>) {
    const chunk = typeof read === 'string' ? Buffer.from(read) : read;
    if (chunk.indexOf(10) === -1) {
      pending.push(chunk);
      continue;
    }
    const bytes = pending.length > 0 ? Buffer.concat([...pending, chunk]) : chunk;
    pending = [];
    let start = 0;
    for (let newline = bytes.indexOf(10); newline !== -1; newline = bytes.indexOf(10, start)) {
      line(bytes, start, newline);
      start = newline + 1;
    }
    if (start < bytes.length) pending.push(bytes.subarray(start));
    if (parsedRows >= YIELD_ROWS) {
      yield parsedRows;
      parsedRows = 0;
    }
  }
  if (pending.length > 0) {
    const rest = Buffer.concat(pending);
    line(rest, 0, rest.length);
  }
  if (parsedRows > 0) yield parsedRows;
}

/** One row's fields by name, reused from row to row: millions of rows, no garbage for this step. */
function rawRowReader(index: InfoTableColumns) {
  const raw: RawInfoRow = {
    accession: '',
    cusip: undefined,
    issuer: undefined,
    titleOfClass: undefined,
    figi: undefined,
    value: undefined,
    shares: undefined,
    shareType: undefined,
    putCall: undefined,
    discretion: undefined,
    otherManager: undefined,
    votingSole: undefined,
    votingShared: undefined,
    votingNone: undefined,
  };
  // A missing column has index -1, and row[-1] is undefined: read as empty.
  return (row: string[], accession: string, into: InfoTableRow): InfoTableRow => {
    raw.accession = accession;
    raw.cusip = row[index.cusip];
    raw.issuer = row[index.issuer];
    raw.titleOfClass = row[index.title];
    raw.figi = row[index.figi];
    raw.value = row[index.value];
    raw.shares = row[index.shares];
    raw.shareType = row[index.type];
    raw.putCall = row[index.putCall];
    raw.discretion = row[index.discretion];
    raw.otherManager = row[index.other];
    raw.votingSole = row[index.sole];
    raw.votingShared = row[index.shared];
    raw.votingNone = row[index.none];
    return normaliseInfoRow(raw, into);
  };
}

export type RawInfoRow = { accession: string } & {
  [K in Exclude<keyof InfoTableRow, 'accession'>]: string | undefined;
};

function emptyInfoRow(): InfoTableRow {
  // biome-ignore format: every field, in declaration order
  return { accession: '', cusip: '', issuer: null, titleOfClass: null, figi: null, value: 0, shares: null,
    shareType: null, putCall: null, discretion: null, otherManager: null, votingSole: null, votingShared: null,
    votingNone: null };
}

/** Validates and normalises one holding row, from TSV or XML alike, into `into` (default: a new row). */
export function normaliseInfoRow(raw: RawInfoRow, into: InfoTableRow = emptyInfoRow()): InfoTableRow {
  const cusip = (raw.cusip ?? '').trim().toUpperCase();
  if (!/^[0-9A-Z]{9}$/.test(cusip)) throw new Error(`invalid CUSIP ${JSON.stringify(raw.cusip)}`);
  const value = parseWholeNumber(raw.value);
  if (value === null) throw new Error(`empty VALUE for ${cusip}`);
  const shareType = textOrNull(raw.shareType)?.toUpperCase() ?? null;
  if (shareType !== null && shareType !== 'SH' && shareType !== 'PRN') {
    throw new Error(`SSHPRNAMTTYPE must be SH or PRN, got ${JSON.stringify(raw.shareType)}`);
  }
  const putCall = textOrNull(raw.putCall)?.toUpperCase() ?? null;
  if (putCall !== null && putCall !== 'PUT' && putCall !== 'CALL') {
    throw new Error(`PUTCALL must be Put or Call, got ${JSON.stringify(raw.putCall)}`);
  }
  into.accession = raw.accession;
  into.cusip = cusip;
  into.issuer = textOrNull(raw.issuer);
  into.titleOfClass = textOrNull(raw.titleOfClass);
  into.figi = textOrNull(raw.figi);
  into.value = value;
  into.shares = parseWholeNumber(raw.shares);
  into.shareType = shareType;
  into.putCall = putCall;
  into.discretion = textOrNull(raw.discretion)?.toUpperCase() ?? null;
  into.otherManager = textOrNull(raw.otherManager);
  into.votingSole = parseWholeNumber(raw.votingSole);
  into.votingShared = parseWholeNumber(raw.votingShared);
  into.votingNone = parseWholeNumber(raw.votingNone);
  return into;
}
