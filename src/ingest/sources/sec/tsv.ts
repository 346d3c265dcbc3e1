/**
 * Streaming reader for the 13F data sets' tab-separated members. The files are unquoted TSV with a
 * header row; columns are looked up by header name because SEC added columns over time (FIGI,
 * CRDNUMBER, …). Rows come in batches so 3.8 million rows cost a few thousand awaits, not millions.
 */
import { StringDecoder } from 'node:string_decoder';

export interface TsvBatch {
  /** Column name (upper case) → index. */
  columns: Map<string, number>;
  rows: string[][];
}

const BATCH_ROWS = 4096;

export async function* readTsvBatches(input: AsyncIterable<Buffer | string>): AsyncGenerator<TsvBatch> {
  const decoder = new StringDecoder('utf8');
  let columns: Map<string, number> | null = null;
  let carry = '';
  let rows: string[][] = [];
  const take = (line: string) => {
    const clean = line.endsWith('\r') ? line.slice(0, -1) : line;
    if (columns === null) {
      columns = headerColumns(clean);
      return;
    }
    if (clean !== '') rows.push(clean.split('\t'));
  };
  for await (const chunk of input) {
    const text = carry + (typeof chunk === 'string' ? chunk : decoder.write(chunk));
    let start = 0;
    let newline = text.indexOf('\n', start);
    while (newline !== -1) {
      take(text.slice(start, newline));
      start = newline + 1;
      newline = text.indexOf('\n', start);
    }
    carry = text.slice(start);
    if (rows.length >= BATCH_ROWS && columns) {
      yield { columns, rows };
      rows = [];
    }
  }
  carry += decoder.end();
  if (carry !== '') take(carry);
  if (columns && rows.length > 0) yield { columns, rows };
}

/** A header line's columns: upper-case name → index (a byte-order mark dropped). */
export function headerColumns(line: string): Map<string, number> {
  const columns = new Map<string, number>();
  line
    .replace(/^\uFEFF/, '')
    .split('\t')
    .forEach((name, index) => {
      columns.set(name.trim().toUpperCase(), index);
    });
  return columns;
}

/** Reads a row's fields by column name; missing columns read as undefined. */
export function fieldReader(columns: Map<string, number>, required: readonly string[]) {
  const missing = required.filter((name) => !columns.has(name));
  if (missing.length > 0) {
    throw new Error(`missing column(s) ${missing.join(', ')} (have ${[...columns.keys()].join(', ')})`);
  }
  return (row: string[], name: string): string | undefined => {
    const index = columns.get(name);
    return index === undefined ? undefined : row[index];
  };
}
