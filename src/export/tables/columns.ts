/** Helpers the export's table definitions share. */
import { sql } from 'kysely';
import type { ExportColumn } from '../types.js';

export const THOUSANDS_USD = 'thousands of USD';

export const column = (
  name: string,
  type: ExportColumn['type'],
  unit: string | null,
  description: string,
): ExportColumn => ({ name, type, unit, description });

/** A computed column's place in a query (filled by the table's `complete`). */
export const placeholder = (name: string) => sql<null>`null`.as(name);
