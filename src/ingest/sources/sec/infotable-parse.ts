/**
 * A data set's INFOTABLE parsed and validated into flat arrays, in batches: the accepted rows'
 * fields, where each stored record (a filing, or a part of a huge one) begins and ends, and the
 * counts of rows skipped and rejected. Runs in the parsing worker (infotable-worker.ts), or in the
 * loading thread where no worker can be started. The loading thread packs, sums and stages the
 * records from these arrays: the work is split so that both threads are busy.
 */

import { codeOf } from '../../../holdings/portfolio-pack.js';
import { doubled } from '../../../typed-arrays.js';
import { scanDatasetInfoTable } from './dataset-records.js';
import type { DatasetZip } from './dataset-zip.js';
import { MAX_ROWS_PER_PART } from './holdings/info-tables.js';
import { infoRowRefusal } from './info-row-accept.js';
import type { InfoTableRow, Rejection } from './types.js';

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

/** The rows of a batch's records, back to back (transferable arrays and two strings). */
export interface RowFields {
  /** 9 characters a row (normalised CUSIP). */
  cusips: string;
  /** Share type × put/call (filing-sums.ts codeOf). */
  codes: Uint8Array;
  /** VALUE and SSHPRNAMT as filed. */
  values: Float64Array;
  shares: Float64Array;
  /** Voting authority sole, shared, none: three a row, NaN for null. */
  voting: Float64Array;
  /** Issuer, class and investment discretion a row, as a JSON array (nulls kept). JSON.parse gives
   * flat strings, which compare several times faster than slices of one long string. */
  texts: string;
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
  private cusips: string[] = [];
  private codes = new Uint8Array(ROWS_PER_BATCH);
  private values = new Float64Array(ROWS_PER_BATCH);
  private shares = new Float64Array(ROWS_PER_BATCH);
  private voting = new Float64Array(ROWS_PER_BATCH * 3);
  private texts: (string | null)[] = [];

  /** An accepted row (infoRowRefusal gave null: issuer, shares and share type are there). */
  add(row: InfoTableRow): void {
    if (this.size === this.codes.length) this.grow();
    const i = this.size++;
    this.cusips.push(row.cusip);
    this.codes[i] = codeOf(row.shareType as string, row.putCall);
    this.values[i] = row.value;
    this.shares[i] = row.shares as number;
    this.voting[3 * i] = row.votingSole ?? Number.NaN;
    this.voting[3 * i + 1] = row.votingShared ?? Number.NaN;
    this.voting[3 * i + 2] = row.votingNone ?? Number.NaN;
    this.texts.push(row.issuer, row.titleOfClass, row.discretion);
  }

  private grow(): void {
    this.codes = doubled(this.codes);
    this.values = doubled(this.values);
    this.shares = doubled(this.shares);
    this.voting = doubled(this.voting);
  }

  take(): RowFields {
    const fields = {
      cusips: this.cusips.join(''),
      codes: this.codes.slice(0, this.size),
      values: this.values.slice(0, this.size),
      shares: this.shares.slice(0, this.size),
      voting: this.voting.slice(0, 3 * this.size),
      texts: JSON.stringify(this.texts),
    };
    this.size = 0;
    this.cusips = [];
    this.texts = [];
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
  const onRow = (row: InfoTableRow) => {
    const refusal = infoRowRefusal(row, filings.get(row.accession));
    if (refusal === null) {
      cutter.add(row.accession);
      columns.add(row);
    } else if ('skip' in refusal) count(skipped, refusal.skip);
    else count(rejected, refusal.reject);
  };
  for await (const rows of scanDatasetInfoTable(zip, rejections, onRow)) {
    read += rows;
    if (read >= ROWS_PER_BATCH) {
      cutter.endBatch();
      yield take();
    }
  }
  cutter.close();
  yield take();
}
