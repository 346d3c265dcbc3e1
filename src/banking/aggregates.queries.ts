/**
 * Reads for /api/v1/aggregates: the statistics precomputed at load time
 * (src/ingest/derived/financial-aggregates.ts), one row per report date, group and field; the
 * industry's kept per field as read indexes once asked for (reading its rows was most of the
 * industry series' cost: ~0.45 ms of it over every report date).
 */
import type { Kysely } from 'kysely';
import { perVersion } from '../db/per-version.js';
import { readIndex, type Sized } from '../db/read-indexes.js';
import type { Database, FinancialAggregatesTable } from '../db/tables.js';
import type { AggregateGroup } from './aggregates.schemas.js';

export type AggregateRow = Omit<FinancialAggregatesTable, 'group_by'>;

const COLUMNS = [
  'field',
  'report_date',
  'grp',
  'institutions',
  'count',
  'sum',
  'mean',
  'median',
  'p25',
  'p75',
] as const;

/** Every aggregated report date, ascending (the industry rows of total_assets list them all). */
const aggregatedDates = perVersion(async (db) => {
  const rows = await db
    .selectFrom('financial_aggregates')
    .select('report_date')
    .where('group_by', '=', 'none')
    .where('field', '=', 'total_assets')
    .orderBy('report_date')
    .execute();
  return rows.map((row) => row.report_date);
});

/** The aggregated report dates of a window, ascending. */
export async function reportDatesBetween(
  db: Kysely<Database>,
  start?: string,
  end?: string,
): Promise<string[]> {
  const dates = await aggregatedDates(db);
  return dates.filter((date) => (!start || date >= start) && (!end || date <= end));
}

/**
 * Roughly the bytes one row holds in memory: an object of ten members, five of them doubles held as
 * heap numbers, and its own field, date and group texts.
 */
const ROW_BYTES = 280;

interface FieldRows extends Sized {
  /** Every report date's industry row of one field, by report date. */
  readonly rows: AggregateRow[];
}

function rowsOf(db: Kysely<Database>, groupBy: AggregateGroup, fields: readonly string[]) {
  return db
    .selectFrom('financial_aggregates')
    .select(COLUMNS)
    .where('group_by', '=', groupBy)
    .where('field', 'in', fields);
}

/** The first row dated `date` or later, in rows ordered by report date (binary search). */
function firstFrom(rows: readonly AggregateRow[], date: string): number {
  let low = 0;
  let high = rows.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if ((rows[mid] as AggregateRow).report_date < date) low = mid + 1;
    else high = mid;
  }
  return low;
}

/**
 * A field's industry rows (group_by `none`), every report date, as a read index (db/read-indexes.ts):
 * ~100 rows, so a request for a few fields over a window or one date slices them instead of reading
 * them again (the industry series over every report date: ~500 rows a request). Groupings are read
 * from the database: a field holds ~55 of their rows a date, and building every date's to answer one
 * would read ~100 times what the answer needs.
 */
function industryRows(db: Kysely<Database>, field: string, maxBytes: number) {
  return readIndex(db, `aggregates|none|${field}`, maxBytes, async (): Promise<FieldRows> => {
    const rows = await rowsOf(db, 'none', [field]).orderBy('report_date').execute();
    return { rows, bytes: rows.length * ROW_BYTES };
  });
}

/**
 * The rows of `fields` for the report dates `dates` (ascending) under `groupBy`; the industry's from
 * the read indexes when `maxBytes` allows them (READ_INDEX_MAX_BYTES), the rest from the database.
 */
export async function aggregateRows(
  db: Kysely<Database>,
  dates: readonly string[],
  groupBy: AggregateGroup,
  fields: readonly string[],
  maxBytes: number,
): Promise<AggregateRow[]> {
  const first = dates[0] as string;
  const last = dates.at(-1) as string;
  if (groupBy === 'none') {
    const indexed = await Promise.all(fields.map((field) => industryRows(db, field, maxBytes)));
    if (indexed.every((index) => index !== null)) {
      return indexed.flatMap(({ rows }) =>
        rows.slice(firstFrom(rows, first), firstFrom(rows, `${last}\uffff`)),
      );
    }
  }
  // A range even for one date: with `report_date = ?` SQLite's planner prefers the date index and
  // then looks every row up by its key (~380 µs for a date's states, five fields); a range keeps it
  // on the primary key, whose (group_by, field, report_date) prefix finds the rows in order (~200 µs).
  return rowsOf(db, groupBy, fields)
    .where('report_date', '>=', first)
    .where('report_date', '<=', last)
    .execute();
}
