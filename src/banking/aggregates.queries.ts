/**
 * Reads for /api/v1/aggregates: the statistics precomputed at load time
 * (src/ingest/derived/financial-aggregates.ts), one row per report date, group and field, kept per
 * field and grouping as read indexes once asked for (reading the rows was most of an answer's cost:
 * ~0.45 ms of the industry series over every report date).
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

/** Roughly the bytes one row holds in memory (an object of ten members, its date and group texts). */
const ROW_BYTES = 160;

interface FieldRows extends Sized {
  /** Every report date's rows of one field under one grouping, by report date, then group. */
  readonly rows: AggregateRow[];
}

function rowsOf(db: Kysely<Database>, groupBy: AggregateGroup, fields: readonly string[]) {
  return db
    .selectFrom('financial_aggregates')
    .select(COLUMNS)
    .where('group_by', '=', groupBy)
    .where('field', 'in', fields);
}

/** The first row at or after `from` in rows ordered by report date (binary search). */
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
 * A field's rows under one grouping, every report date, as a read index (db/read-indexes.ts): a
 * request for a few fields over one date or a window slices them instead of reading its rows again
 * (the industry series over every report date is ~500 rows, a state breakdown ~330 a date).
 */
function fieldRows(db: Kysely<Database>, groupBy: AggregateGroup, field: string, maxBytes: number) {
  return readIndex(db, `aggregates|${groupBy}|${field}`, maxBytes, async (): Promise<FieldRows> => {
    const rows = await rowsOf(db, groupBy, [field]).orderBy('report_date').orderBy('grp').execute();
    return { rows, bytes: rows.length * ROW_BYTES };
  });
}

/**
 * The rows of `fields` for the report dates `dates` (ascending) under `groupBy`; from the read
 * indexes when `maxBytes` allows them (READ_INDEX_MAX_BYTES), else from the database.
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
  const indexed = await Promise.all(fields.map((field) => fieldRows(db, groupBy, field, maxBytes)));
  if (indexed.every((index) => index !== null)) {
    return indexed.flatMap(({ rows }) =>
      rows.slice(firstFrom(rows, first), firstFrom(rows, `${last}\uffff`)),
    );
  }
  let query = rowsOf(db, groupBy, fields);
  if (dates.length === 1) query = query.where('report_date', '=', first);
  else query = query.where('report_date', '>=', first).where('report_date', '<=', last);
  return query.execute();
}
