/** A file of one exported table being written: rows in, then close (flushes, finishes the file). */
import type { ExportColumn, ExportRow } from '../types.js';

export interface TableWriter {
  write(rows: readonly ExportRow[]): Promise<void>;
  close(): Promise<void>;
}

/** A value as its column's type wants it (PostgreSQL hands bigint and numeric columns over as text). */
export function coerce(column: ExportColumn, value: unknown): string | number | boolean | null {
  if (value === null || value === undefined) return null;
  switch (column.type) {
    case 'INTEGER':
    case 'BIGINT':
    case 'DOUBLE':
      return Number(value);
    case 'BOOLEAN':
      return value === true || value === 1 || value === '1' || value === 'true';
    default:
      return String(value);
  }
}
