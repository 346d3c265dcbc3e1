/**
 * A data set's INFOTABLE parsed and validated into flat arrays, in batches: the accepted rows'
 * fields, where each stored record (a filing, or a part of a huge one) begins and ends, and the
 * counts of rows skipped and rejected. Runs in the parsing worker (infotable-worker.ts), or in the
 * loading thread where no worker can be started. The loading thread packs, sums and stages the
 * records from these arrays: the work is split so that both threads are busy.
 */

import { CUSIP_BYTES, codeOf } from '../../../holdings/portfolio-pack.js';
import { doubled } from '../../../typed-arrays.js';
import { type InfoRowSink, scanInfoTableRows } from './dataset-records.js';
import type { DatasetZip } from './dataset-zip.js';
import type { EncodedRecords } from './holdings/info-row-codec.js';
import { MAX_ROWS_PER_PART } from './holdings/info-tables.js';

import { infoRowRefusal, PLACEHOLDER_CUSIP, plainRowRefusal } from './info-row-accept.js';
import type { InfoTableColumns, LineFields } from './infotable-bytes.js';
import type { RowFields } from './row-fields.js';
import { TextColumn } from './text-column.js';
import type { InfoTableRow, PlainInfoRow, Rejection } from './types.js';

/** The filings of the load an INFOTABLE row may belong to: accession → form type. */
export type LoadFilings = ReadonlyMap<string, string>;

/**
 * A stored record's rows in this batch: the next `rows` of the batch's fields. A record is cut only
 * where InfoTablePacker would cut it (a new accession number, or MAX_ROWS_PER_PART rows), never by
 * the batching: one that `continues` goes on with the first cut of the next batch.
 */
export interface RecordCut {
  accession: string;
  part: number;
  rows: number;
  continues: boolean;
}

export interface ParsedBatch {
  records: RecordCut[];
  fields: RowFields;
  /** INFOTABLE rows that parsed, stored or not (those that did not are in `rejections`). */
  read: number;
  skipped: [reason: string, count: number][];
  rejected: [reason: string, count: number][];
  /** Rows that did not parse (counted by the caller, with their place). */
  rejections: Rejection[];
  /**
   * The records' stored bytes, when the parsing worker encoded them (it does while the loading
   * thread is behind); otherwise the loading thread encodes them from `fields`.
   */
  encoded?: EncodedRecords;
}

/**
 * Rows per batch. A batch's strings live until it is posted, and every young-generation collection
 * meanwhile copies them: 10,000 rows halve both threads' collection time against 50,000 (measured
 * at 3.8 M rows: 1.7 s of pauses instead of 3.6–3.9 s, peak RSS 650–750 MB instead of 830–960).
 */
const ROWS_PER_BATCH = 10_000;

function count(map: Map<string, number>, reason: string) {
  map.set(reason, (map.get(reason) ?? 0) + 1);
}

/** The accepted rows' fields, straight into typed arrays that grow as needed. */
class FieldColumns {
  size = 0;
  private cusips = new Uint8Array(ROWS_PER_BATCH * CUSIP_BYTES);
  private codes = new Uint8Array(ROWS_PER_BATCH);
  private values = new Float64Array(ROWS_PER_BATCH);
  private shares = new Float64Array(ROWS_PER_BATCH);
  private voting = new Float64Array(ROWS_PER_BATCH * 3);
  private readonly texts = new TextColumn();

  /** An accepted row the string path read (infoRowRefusal gave null). */
  add(row: InfoTableRow): void {
    const at = this.addNumbers(row) * CUSIP_BYTES;
    // normaliseInfoRow let through nine of [0-9A-Z] only.
    for (let k = 0; k < CUSIP_BYTES; k++) this.cusips[at + k] = row.cusip.charCodeAt(k);
    this.texts.add(row.issuer);
    this.texts.add(row.titleOfClass);
    this.texts.add(row.discretion);
  }

  /** An accepted plain row, its CUSIP and texts copied from the line. */
  addPlain(row: PlainInfoRow, fields: LineFields, columns: InfoTableColumns): void {
    const at = this.addNumbers(row) * CUSIP_BYTES;
    const { bytes } = fields;
    const start = fields.startOf(columns.cusip);
    for (let k = 0; k < CUSIP_BYTES; k++) this.cusips[at + k] = bytes[start + k] as number;
    this.texts.addField(fields, columns.issuer);
    this.texts.addField(fields, columns.title);
    this.texts.add(row.discretion);
  }

  /** The row's numbers and codes; returns its index. */
  private addNumbers(row: PlainInfoRow): number {
    if (this.size === this.codes.length) this.grow();
    const i = this.size++;
    this.codes[i] = codeOf(row.shareType as string, row.putCall);
    this.values[i] = row.value;
    this.shares[i] = row.shares as number;
    this.voting[3 * i] = row.votingSole ?? Number.NaN;
    this.voting[3 * i + 1] = row.votingShared ?? Number.NaN;
    this.voting[3 * i + 2] = row.votingNone ?? Number.NaN;
    return i;
  }

  private grow(): void {
    this.cusips = doubled(this.cusips);
    this.codes = doubled(this.codes);
    this.values = doubled(this.values);
    this.shares = doubled(this.shares);
    this.voting = doubled(this.voting);
  }

  take(): RowFields {
    const { texts, lengths } = this.texts.take();
    const fields = {
      cusips: this.cusips.slice(0, CUSIP_BYTES * this.size),
      codes: this.codes.slice(0, this.size),
      values: this.values.slice(0, this.size),
      shares: this.shares.slice(0, this.size),
      voting: this.voting.slice(0, 3 * this.size),
      texts,
      textLengths: lengths,
    };
    this.size = 0;
    return fields;
  }
}

/** Where records begin: at a new accession number, or after MAX_ROWS_PER_PART rows (as InfoTablePacker). */
class RecordCutter {
  private current: { accession: string; part: number; rows: number; inBatch: number } | null = null;
  private readonly parts = new Map<string, number>();
  cuts: RecordCut[] = [];

  add(accession: string): void {
    if (this.current?.accession !== accession || this.current.rows >= MAX_ROWS_PER_PART) {
      this.close();
      const part = this.parts.get(accession) ?? 0;
      this.parts.set(accession, part + 1);
      this.current = { accession, part, rows: 0, inBatch: 0 };
    }
    this.current.rows += 1;
    this.current.inBatch += 1;
  }

  /** Ends the open record (the next row starts a new one, or the next part). */
  close(): void {
    this.cut(false);
    this.current = null;
  }

  /** Ends a batch: the open record's rows so far go with it, and the record continues. */
  endBatch(): void {
    if (this.current && this.current.inBatch > 0) this.cut(true);
  }

  private cut(continues: boolean): void {
    const current = this.current;
    if (!current) return;
    this.cuts.push({ accession: current.accession, part: current.part, rows: current.inBatch, continues });
    current.inBatch = 0;
  }
}

export async function* parseInfoTable(zip: DatasetZip, filings: LoadFilings): AsyncGenerator<ParsedBatch> {
  const columns = new FieldColumns();
  const cutter = new RecordCutter();
  let skipped = new Map<string, number>();
  let rejected = new Map<string, number>();
  const rejections: Rejection[] = [];
  let read = 0;
  const take = (): ParsedBatch => {
    const records = cutter.cuts;
    cutter.cuts = [];
    const batch = {
      records,
      fields: columns.take(),
      read,
      skipped: [...skipped],
      rejected: [...rejected],
      rejections: rejections.splice(0),
    };
    skipped = new Map();
    rejected = new Map();
    read = 0;
    return batch;
  };
  const refused = (refusal: ReturnType<typeof infoRowRefusal>) => {
    if (refusal === null) return false;
    if ('skip' in refusal) count(skipped, refusal.skip);
    else count(rejected, refusal.reject);
    return true;
  };
  const sink: InfoRowSink = {
    row(row) {
      if (refused(infoRowRefusal(row, filings.get(row.accession)))) return;
      cutter.add(row.accession);
      columns.add(row);
    },
    plain(row, fields, at) {
      // biome-ignore format: one verdict
      const refusal = plainRowRefusal(row, fields.is(at.cusip, PLACEHOLDER_CUSIP), fields.isBlank(at.issuer),
        filings.get(row.accession));
      if (refused(refusal)) return;
      cutter.add(row.accession);
      columns.addPlain(row, fields, at);
    },
  };
  for await (const rows of scanInfoTableRows(zip, rejections, sink)) {
    read += rows;
    if (read >= ROWS_PER_BATCH) {
      cutter.endBatch();
      yield take();
    }
  }
  cutter.close();
  yield take();
}
