/**
 * RFC 4180 CSV lines for the bulk export's millions of rows: csv-stringify (what the API's
 * `format=csv` uses) costs ~0.7 µs per value, which made a full-scale export take minutes; one
 * encoder per column type here costs about the number formatting itself. A null is an empty,
 * unquoted field; an empty string is `""` (readers can tell them apart: DuckDB with
 * `allow_quoted_nulls=false`); a field with a comma, quote, CR or LF is quoted, its quotes doubled.
 * test/export/csv-line.test.ts checks the lines against csv-parse.
 */
import type { ExportColumn } from '../types.js';

type Encode = (value: unknown) => string;

const NEEDS_QUOTES = /[",\r\n]/;

const text: Encode = (value) => {
  if (value === null || value === undefined) return '';
  const string = String(value);
  if (string === '') return '""';
  return NEEDS_QUOTES.test(string) ? `"${string.replaceAll('"', '""')}"` : string;
};
// PostgreSQL hands bigint and numeric columns over as decimal text: written as they are (exact).
const number: Encode = (value) => (value === null || value === undefined ? '' : String(value));
const boolean: Encode = (value) =>
  value === null || value === undefined
    ? ''
    : value === true || value === 1 || value === '1' || value === 'true'
      ? 'true'
      : 'false';

function encoderOf(column: ExportColumn): Encode {
  if (column.type === 'BOOLEAN') return boolean;
  return column.type === 'VARCHAR' || column.type === 'DATE' ? text : number;
}

export function csvHeader(columns: readonly ExportColumn[]): string {
  return `${columns.map((column) => text(column.name)).join(',')}\n`;
}

/** The lines of `rows` (each ending in `\n`). */
export function csvEncoder(columns: readonly ExportColumn[]): (rows: readonly unknown[][]) => string {
  const encoders = columns.map(encoderOf);
  const width = encoders.length;
  return (rows) => {
    const lines: string[] = new Array(rows.length);
    const fields: string[] = new Array(width);
    for (let r = 0; r < rows.length; r++) {
      const row = rows[r] as unknown[];
      for (let i = 0; i < width; i++) fields[i] = (encoders[i] as Encode)(row[i]);
      lines[r] = fields.join(',');
    }
    return rows.length > 0 ? `${lines.join('\n')}\n` : '';
  };
}
