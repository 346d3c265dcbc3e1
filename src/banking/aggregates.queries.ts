/**
 * Reads for /api/v1/aggregates: the statistics precomputed at load time
 * (src/ingest/derived/financial-aggregates.ts), one row per report date, group and field.
 */
import type { Kysely, Selectable } from 'kysely';
import type { Database, FinancialAggregatesTable } from '../db/tables.js';
import type { AggregateGroup } from './aggregates.schemas.js';

export type AggregateRow = Selectable<FinancialAggregatesTable>;

/** The aggregated report dates of a window, ascending. */
export async function reportDatesBetween(
  db: Kysely<Database>,
  start?: string,
  end?: string,
): Promise<string[]> {
  let query = db
    .selectFrom('financial_aggregates')
    .select('report_date')
    .where('group_by', '=', 'none')
    .where('field', '=', 'total_assets');
  if (start) query = query.where('report_date', '>=', start);
  if (end) query = query.where('report_date', '<=', end);
  return (await query.orderBy('report_date').execute()).map((row) => row.report_date);
}

/** The rows of `fields` for the report dates `dates` (ascending) under `groupBy`. */
export async function aggregateRows(
  db: Kysely<Database>,
  dates: readonly string[],
  groupBy: AggregateGroup,
  fields: readonly string[],
): Promise<AggregateRow[]> {
  let query = db
    .selectFrom('financial_aggregates')
    .selectAll()
    .where('group_by', '=', groupBy)
    .where('field', 'in', fields);
  if (dates.length === 1) query = query.where('report_date', '=', dates[0]!);
  else query = query.where('report_date', '>=', dates[0]!).where('report_date', '<=', dates.at(-1)!);
  return query.execute();
}
