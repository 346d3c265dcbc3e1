/**
 * Reads the packed information-table rows of many filings, a batch at a time, so a quarter of
 * millions of rows is never held at once: the derivation walks its managers in batches and asks for
 * their applied filings' rows.
 */
import { decodeInfoRows, type InfoRowFields } from '../info-row-codec.js';
import type { Executor } from './executor.js';

/** Accession numbers per query: well under every bind-parameter limit. */
export const FILINGS_PER_READ = 100;

export async function readFilingRows(
  executor: Executor,
  accessions: readonly string[],
): Promise<Map<string, InfoRowFields[]>> {
  const out = new Map<string, InfoRowFields[]>();
  for (let i = 0; i < accessions.length; i += FILINGS_PER_READ) {
    const records = await executor
      .selectFrom('info_tables_13f')
      .select(['accession_number', 'rows'])
      .where('accession_number', 'in', accessions.slice(i, i + FILINGS_PER_READ))
      .orderBy('accession_number')
      .orderBy('part')
      .execute();
    for (const record of records) {
      const rows = decodeInfoRows(record.rows);
      const known = out.get(record.accession_number);
      if (known) for (const row of rows) known.push(row);
      else out.set(record.accession_number, rows);
    }
  }
  return out;
}
