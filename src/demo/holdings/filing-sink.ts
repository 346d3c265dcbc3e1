/**
 * Where the demo's generated 13F filings go: the filings collected, their information-table rows
 * packed per filing and streamed to the database in batches, each filing's positions summed as its
 * rows go by (as the SEC load sums them while reading), so the derivation need not read them back.
 */
import type { Insertable, Transaction } from 'kysely';
import { insertRows } from '../../db/bulk.js';
import type { DbHandle } from '../../db/connect.js';
import type { Database } from '../../db/tables.js';
import type { Filings13fTable, InfoRow13f, InfoTables13fTable } from '../../holdings/tables.js';
import {
  normalisedPutCall,
  normalisedShareType,
} from '../../ingest/sources/sec/holdings/derive/positions.js';
import { InfoTablePacker, packInfoRows } from '../../ingest/sources/sec/holdings/info-tables.js';
import { LoadSums } from '../../ingest/sources/sec/holdings/load-sums.js';

const BATCH_ROWS = 20_000;

/** A filing's rows come in one call, right after the filing. */
export function batchingSink(handle: DbHandle, trx: Transaction<Database>) {
  const filings: Insertable<Filings13fTable>[] = [];
  const packer = new InfoTablePacker();
  const sums = new LoadSums();
  let pending: InfoTables13fTable[] = [];
  let pendingRows = 0;
  let rowCount = 0;
  const flush = async () => {
    await insertRows(handle, 'info_tables_13f', pending, trx);
    pending = [];
    pendingRows = 0;
  };
  const sum = (filing: Insertable<Filings13fTable>, rows: readonly InfoRow13f[]) => {
    const run = sums.startFiling(filing.accession_number, filing.filing_date, filing.quarter);
    for (const row of rows) {
      // biome-ignore format: one row
      run.add(row.cusip.toUpperCase(), normalisedShareType(row.share_type), normalisedPutCall(row.put_call),
        row.value, row.shares, row.issuer, row.title_of_class);
    }
    sums.flushIfFull();
  };
  return {
    filing: (filing: Insertable<Filings13fTable>) => void filings.push(filing),
    rows: async (rows: InfoRow13f[]) => {
      const filing = filings.at(-1);
      if (filing && filing.accession_number === rows[0]?.accession_number) sum(filing, rows);
      for (const record of packInfoRows(rows, packer)) pending.push(record);
      rowCount += rows.length;
      pendingRows += rows.length;
      if (pendingRows >= BATCH_ROWS) await flush();
    },
    async finish() {
      const last = packer.close();
      if (last) pending.push(last);
      await flush();
      await insertRows(handle, 'filings_13f', filings, trx);
      sums.endOfRows();
      return { filings: filings.length, rows: rowCount, sums: sums.loaded };
    },
  };
}
