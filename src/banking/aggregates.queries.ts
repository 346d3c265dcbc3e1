/**
 * Reads for /api/v1/aggregates: the statistics precomputed at load time
 * (src/ingest/derived/financial-aggregates.ts), one row per report date, group and field.
 *
 * The industry (group_by `none`) rows are also kept in memory once per dataset version, per field as
 * asked for (at most 176 fields × ~100 report dates, ~2 MB): the industry series over every report
 * date is the most asked aggregate, and reading its ~500 rows was most of its cost (~0.45 ms).
 */
import type { Kysely } from 'kysely';
import { perVersion } from '../db/per-version.js';
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

/** Per field, its industry rows over every report date, read on first use in a dataset version. */
const industryRows = perVersion(async () => new Map<string, Promise<AggregateRow[]>>());

function rowsOf(db: Kysely<Database>, groupBy: AggregateGroup, fields: readonly string[]) {
  return db
    .selectFrom('financial_aggregates')
    .select(COLUMNS)
    .where('group_by', '=', groupBy)
    .where('field', 'in', fields);
}

async function industry(db: Kysely<Database>, dates: readonly string[], fields: readonly string[]) {
  const known = await industryRows(db);
  const missing = fields.filter((field) => !known.has(field));
  if (missing.length > 0) {
    const read = rowsOf(db, 'none', missing).orderBy('field').orderBy('report_date').execute();
    for (const field of missing) {
      const rows = read.then((all) => all.filter((row) => row.field === field));
      known.set(field, rows);
      rows.catch(() => known.delete(field));
    }
  }
  const first = dates[0] as string;
  const last = dates.at(-1) as string;
  const out: AggregateRow[] = [];
  for (const field of fields)
    for (const row of await (known.get(field) as Promise<AggregateRow[]>))
      if (row.report_date >= first && row.report_date <= last) out.push(row);
  return out;
}

/** The rows of `fields` for the report dates `dates` (ascending) under `groupBy`. */
export async function aggregateRows(
  db: Kysely<Database>,
  dates: readonly string[],
  groupBy: AggregateGroup,
  fields: readonly string[],
): Promise<AggregateRow[]> {
  if (groupBy === 'none') return industry(db, dates, fields);
  let query = rowsOf(db, groupBy, fields);
  if (dates.length === 1) query = query.where('report_date', '=', dates[0]!);
  else query = query.where('report_date', '>=', dates[0]!).where('report_date', '<=', dates.at(-1)!);
  return query.execute();
}
