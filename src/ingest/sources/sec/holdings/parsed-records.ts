/**
 * The stored records of a data set's parsed INFOTABLE batches (infotable-parse.ts), for staging in
 * `info_tables_13f` (info-tables.ts).
 */
import type { InfoTables13fTable } from '../../../../holdings/tables.js';
import type { ParsedBatch, RecordCut } from '../infotable-parse.js';
import { InfoRowEncoder } from './info-row-codec.js';
import { packRecord } from './info-tables.js';

/**
 * The stored records of parsed batches (infotable-parse.ts): a record is cut per filing, never by
 * the batching, so one may continue in the next batch. Its rows are encoded here from the batch's
 * fields, or taken as the parsing worker encoded them (`batch.encoded`); either way the same bytes.
 */
export class ParsedRecords {
  /** The record the last batch left open (RecordCut.continues). */
  private open: { accession: string; part: number; rows: InfoRowEncoder } | null = null;

  /** Record `j` of `batch`, its rows from `firstRow` and their texts from `textAt`; returns it once closed. */
  add(batch: ParsedBatch, j: number, firstRow: number, textAt: number): InfoTables13fTable | null {
    const cut = batch.records[j] as RecordCut;
    const open = this.open;
    let rows = open?.accession === cut.accession && open.part === cut.part ? open.rows : null;
    const encoded = batch.encoded;
    if (encoded) {
      const fragment = encoded.bytes.subarray(j === 0 ? 0 : encoded.ends[j - 1], encoded.ends[j]);
      if (!rows && !cut.continues) {
        // A record whole in this batch: its fragment as it is, no copy.
        this.open = null;
        const bytes = Buffer.from(fragment.buffer, fragment.byteOffset, fragment.byteLength);
        return { accession_number: cut.accession, part: cut.part, row_count: cut.rows, rows: bytes };
      }
      rows ??= new InfoRowEncoder(cut.rows);
      rows.addEncoded(fragment, cut.rows);
    } else {
      rows ??= new InfoRowEncoder(cut.rows);
      for (let k = 0; k < cut.rows; k++) textAt = rows.addParsed(batch.fields, firstRow + k, textAt);
    }
    this.open = cut.continues ? { accession: cut.accession, part: cut.part, rows } : null;
    return cut.continues ? null : packRecord(cut.accession, cut.part, rows);
  }

  /** Call after the last batch: the parser closes the last record, and an open one is rows dropped. */
  end(): void {
    if (this.open) throw new Error(`the record of ${this.open.accession} was never closed`);
  }
}
