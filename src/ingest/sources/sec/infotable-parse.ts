/**
 * A data set's INFOTABLE turned into what the load stores, in batches: each filing's accepted rows
 * packed (src/holdings/info-tables.ts), with the counts of rows skipped and rejected. Runs in the
 * parsing worker (infotable-worker.ts), or in the loading thread where no worker can be started.
 */
import { InfoTablePacker } from '../../../holdings/info-tables.js';
import type { InfoTables13fTable } from '../../../holdings/tables.js';
import { readDatasetInfoTable } from './dataset-records.js';
import type { DatasetZip } from './dataset-zip.js';
import { acceptInfoRow } from './info-row-accept.js';
import type { Rejection } from './types.js';

/** The filings of the load an INFOTABLE row may belong to: accession → form type. */
export type LoadFilings = ReadonlyMap<string, string>;

export interface ParsedBatch {
  /** Packed records (a filing, or a part of a huge one), in file order. */
  records: InfoTables13fTable[];
  /** INFOTABLE rows read, valid or not. */
  read: number;
  skipped: [reason: string, count: number][];
  rejected: [reason: string, count: number][];
  /** Rows that did not parse (counted by the caller, with their place). */
  rejections: Rejection[];
}

/** Rows per batch: a few megabytes of packed text. */
const ROWS_PER_BATCH = 50_000;

function count(map: Map<string, number>, reason: string) {
  map.set(reason, (map.get(reason) ?? 0) + 1);
}

export async function* parseInfoTable(zip: DatasetZip, filings: LoadFilings): AsyncGenerator<ParsedBatch> {
  const packer = new InfoTablePacker();
  let records: InfoTables13fTable[] = [];
  let skipped = new Map<string, number>();
  let rejected = new Map<string, number>();
  const rejections: Rejection[] = [];
  let read = 0;
  const take = (): ParsedBatch => {
    const batch = {
      records,
      read,
      skipped: [...skipped],
      rejected: [...rejected],
      rejections: rejections.splice(0),
    };
    records = [];
    skipped = new Map();
    rejected = new Map();
    read = 0;
    return batch;
  };
  for await (const rows of readDatasetInfoTable(zip, rejections)) {
    read += rows.length;
    for (const row of rows) {
      const verdict = acceptInfoRow(row, filings.get(row.accession));
      if (!Array.isArray(verdict)) {
        if ('skip' in verdict) count(skipped, verdict.skip);
        else count(rejected, verdict.reject);
        continue;
      }
      const closed = packer.add(row.accession, verdict);
      if (closed) records.push(closed);
    }
    if (read >= ROWS_PER_BATCH) yield take();
  }
  const last = packer.close();
  if (last) records.push(last);
  yield take();
}
