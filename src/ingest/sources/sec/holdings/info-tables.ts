/**
 * The storage of raw information-table rows: packed per filing in `info_tables_13f`. Only the
 * derivation reads raw rows, and always a whole filing at a time, so one record per filing (per
 * contiguous run of its rows, `part`) holds them in INFO_ROW_FIELDS order, values exactly as filed,
 * in a compact binary form (info-row-codec.ts). A data set's ~3.8 million rows become ~9,000 records.
 */

import { insertRows } from '../../../../db/bulk.js';
import type { DbHandle } from '../../../../db/connect.js';
import type { InfoRow13f, InfoTables13fTable } from '../../../../holdings/tables.js';
import type { Executor } from './derive/executor.js';
import { InfoRowEncoder, type InfoRowFields } from './info-row-codec.js';

/** A packed record bounded in size: a huge filing spans several parts. */
export const MAX_ROWS_PER_PART = 50_000;

/** The stored record of a filing's rows (or of one part of a huge filing's), encoded. */
export function packRecord(accession: string, part: number, rows: InfoRowEncoder): InfoTables13fTable {
  return { accession_number: accession, part, row_count: rows.count, rows: rows.finish() };
}

export function fieldsOf(row: InfoRow13f): InfoRowFields {
  // biome-ignore format: one value per field
  return [row.cusip, row.issuer, row.title_of_class, row.value, row.shares, row.share_type, row.put_call,
    row.investment_discretion, row.voting_sole, row.voting_shared, row.voting_none];
}

/**
 * Groups rows arriving in file order into packed records: a record closes when the accession number
 * changes (a data set lists a filing's rows together), so only one filing is buffered. Should a
 * filing's rows come back later, they form its next part; the derivation reads all parts.
 */
export class InfoTablePacker {
  private accession: string | null = null;
  private rows = new InfoRowEncoder();
  private readonly parts = new Map<string, number>();

  /** Adds a row; returns the record this row closed, if any. */
  add(accession: string, row: InfoRowFields): InfoTables13fTable | null {
    const closed = accession !== this.accession || this.rows.count >= MAX_ROWS_PER_PART ? this.close() : null;
    this.accession = accession;
    this.rows.addFields(row);
    return closed;
  }

  /** Closes the open record; call once after the last row. */
  close(): InfoTables13fTable | null {
    const accession = this.accession;
    if (accession === null || this.rows.count === 0) return null;
    const part = this.parts.get(accession) ?? 0;
    this.parts.set(accession, part + 1);
    const rows = this.rows;
    this.rows = new InfoRowEncoder();
    return packRecord(accession, part, rows);
  }
}

/** Packs rows (any order; grouped by accession as they come). */
export function packInfoRows(
  rows: readonly InfoRow13f[],
  packer = new InfoTablePacker(),
): InfoTables13fTable[] {
  const records: InfoTables13fTable[] = [];
  for (const row of rows) {
    const closed = packer.add(row.accession_number, fieldsOf(row));
    if (closed) records.push(closed);
  }
  return records;
}

/** Stores rows packed, in one go; for tests and small loads that hold rows as objects. */
export async function insertInfoRows(
  handle: DbHandle,
  rows: readonly InfoRow13f[],
  executor: Executor = handle.db,
): Promise<number> {
  const packer = new InfoTablePacker();
  const records = packInfoRows(rows, packer);
  const last = packer.close();
  if (last) records.push(last);
  await insertRows(handle, 'info_tables_13f', records, executor);
  return rows.length;
}
