/**
 * A table's rows as a stream of batches of arrays, in bounded memory, inside the export's read
 * transaction: on SQLite one statement iterated in raw (array) mode on the handle's one connection
 * (the transaction's); on PostgreSQL a server-side cursor fetched a batch at a time.
 */
import { type Compilable, sql, type Transaction } from 'kysely';
import type { DbHandle } from '../db/connect.js';
import type { Database } from '../db/tables.js';
import type { ExportRow } from './types.js';

/** Values per batch: 5,000 rows of a narrow table, ~1,300 of the financials' ~190 columns. */
const BATCH_VALUES = 250_000;
const MAX_BATCH_ROWS = 5000;

/** Rows per batch of a table of `columns` columns. */
export const batchRows = (columns: number) =>
  Math.max(1, Math.min(MAX_BATCH_ROWS, Math.floor(BATCH_VALUES / columns)));

export async function* readRows(
  handle: DbHandle,
  trx: Transaction<Database>,
  query: Compilable,
  rowsPerBatch: number,
): AsyncIterable<ExportRow[]> {
  const { sql: text, parameters } = query.compile();
  if (handle.sqlite) {
    let batch: ExportRow[] = [];
    for (const row of handle.sqlite
      .prepare(text)
      .raw(true)
      .iterate(...parameters)) {
      batch.push(row as ExportRow);
      if (batch.length === rowsPerBatch) {
        yield batch;
        batch = [];
      }
    }
    if (batch.length > 0) yield batch;
    return;
  }
  // The cursor lives in the transaction; its text is our own compiled query with its parameters.
  await sql`declare export_rows no scroll cursor for ${sql.raw(inline(text, parameters))}`.execute(trx);
  try {
    for (;;) {
      const { rows } = await sql<
        Record<string, unknown>
      >`fetch ${sql.raw(String(rowsPerBatch))} from export_rows`.execute(trx);
      if (rows.length > 0) yield rows.map((row) => Object.values(row));
      if (rows.length < rowsPerBatch) return;
    }
  } finally {
    await sql`close export_rows`.execute(trx);
  }
}

/** DECLARE CURSOR takes no bind parameters: the query's ($1, $2…) written as literals. */
function inline(text: string, parameters: readonly unknown[]): string {
  return text.replace(/\$(\d+)/g, (_, index: string) => literal(parameters[Number(index) - 1]));
}

function literal(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'number' || typeof value === 'bigint') return String(value);
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  return `'${String(value).replaceAll("'", "''")}'`;
}
