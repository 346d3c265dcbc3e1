/**
 * Derives `financial_aggregates` (SPEC §5, /api/v1/aggregates): for each report date, each grouping
 * (none, state, charter class, size band) and each group, the statistics of every catalogue field
 * over the group's non-null values. Runs inside the transaction of every load that changes
 * financials (the report dates it touched) or institutions (every date: state and charter class come
 * from the institution's current record), and in the demo build; a request then reads a few rows
 * instead of sorting every bank of every date it covers.
 */
import type { Insertable, Kysely, Transaction } from 'kysely';
import { FIELD_NAMES } from '../../banking/fields/catalogue.js';
import { sizeBandOf } from '../../banking/peers/bands.js';
import { quantile } from '../../banking/peers/stats.js';
import { insertRows, selectValueArrays } from '../../db/bulk.js';
import type { DbHandle } from '../../db/connect.js';
import type { Database, FinancialAggregatesTable } from '../../db/tables.js';
import { type AscendingColumn, ascendingWithRows } from './ascending-order.js';

type Executor = Kysely<Database> | Transaction<Database>;
type AggregateRow = Insertable<FinancialAggregatesTable>;

/** The group of institutions whose grouping value is not known. */
export const UNKNOWN_GROUP = 'unknown';

type Institution = { state: string | null; charter_class: string | null } | undefined;

/** The groupings, each naming a record's group from its institution and its total assets. */
const GROUPINGS: readonly {
  name: string;
  groupOf: (institution: Institution, assets: number | null) => string;
}[] = [
  { name: 'none', groupOf: () => '' },
  { name: 'state', groupOf: (institution) => institution?.state ?? UNKNOWN_GROUP },
  { name: 'charter_class', groupOf: (institution) => institution?.charter_class ?? UNKNOWN_GROUP },
  { name: 'size_band', groupOf: (_, assets) => sizeBandOf(assets) ?? UNKNOWN_GROUP },
];

/**
 * Rebuilds the aggregates of `dates` (every report date when omitted) from the rows `executor`
 * sees; dates that no longer have financials lose theirs. Returns the rows written.
 */
export async function deriveFinancialAggregates(
  handle: DbHandle,
  executor: Executor,
  dates?: Iterable<string>,
): Promise<number> {
  const present = await reportDates(executor);
  const targets = dates === undefined ? present : [...new Set(dates)].filter((d) => present.includes(d));
  const stale = await datesToClear(executor, present, dates === undefined ? undefined : new Set(dates));
  for (let i = 0; i < stale.length; i += 500)
    await executor
      .deleteFrom('financial_aggregates')
      .where('report_date', 'in', stale.slice(i, i + 500))
      .execute();
  let written = 0;
  const institutions = await institutionsOf(executor);
  for (const date of targets.sort()) {
    const rows = await aggregatesOf(handle, executor, institutions, date);
    written += await insertRows(handle, 'financial_aggregates', rows, executor);
  }
  return written;
}

/** Fills `financial_aggregates` when financials are loaded but were never aggregated (an upgrade). */
export async function backfillFinancialAggregates(handle: DbHandle): Promise<number> {
  const aggregated = await handle.db
    .selectFrom('financial_aggregates')
    .select('report_date')
    .limit(1)
    .execute();
  const loaded = await handle.db.selectFrom('financials').select('report_date').limit(1).execute();
  if (aggregated.length > 0 || loaded.length === 0) return 0;
  return handle.db.transaction().execute((trx) => deriveFinancialAggregates(handle, trx));
}

async function reportDates(executor: Executor): Promise<string[]> {
  const rows = await executor.selectFrom('financials').select('report_date').distinct().execute();
  return rows.map((row) => row.report_date);
}

/** Dates being rebuilt plus dates aggregated before whose financials are gone (a whole-table swap). */
async function datesToClear(
  executor: Executor,
  present: readonly string[],
  rebuilt: ReadonlySet<string> | undefined,
): Promise<string[]> {
  const aggregated = await executor
    .selectFrom('financial_aggregates')
    .select('report_date')
    .where('group_by', '=', 'none')
    .where('field', '=', 'total_assets')
    .execute();
  const kept = new Set(present);
  return aggregated
    .map((row) => row.report_date)
    .filter((date) => rebuilt === undefined || rebuilt.has(date) || !kept.has(date));
}

/** Each institution's state and charter class (current record), by cert. */
type Institutions = Map<number, { state: string | null; charter_class: string | null }>;

async function institutionsOf(executor: Executor): Promise<Institutions> {
  const rows = await executor.selectFrom('institutions').select(['cert', 'state', 'charter_class']).execute();
  return new Map(rows.map((row) => [row.cert, row]));
}

/** Where total assets (which size the bands) sit in a record. */
const ASSETS = 1 + FIELD_NAMES.indexOf('total_assets');

/** A date's records: [cert, ...every catalogue field]. */
async function recordsOf(handle: DbHandle, executor: Executor, date: string): Promise<unknown[][]> {
  const query = executor
    .selectFrom('financials')
    .select(['cert', ...FIELD_NAMES.map((name) => name as 'cert')])
    .where('report_date', '=', date);
  return selectValueArrays(handle, executor, query);
}

async function aggregatesOf(
  handle: DbHandle,
  executor: Executor,
  institutions: Institutions,
  date: string,
): Promise<AggregateRow[]> {
  const records = await recordsOf(handle, executor, date);
  const groupings = GROUPINGS.map((grouping) => ({
    name: grouping.name,
    ...groupIds(records, (record) =>
      grouping.groupOf(institutions.get(record[0] as number), record[ASSETS] as number | null),
    ),
  }));
  const rows: AggregateRow[] = [];
  FIELD_NAMES.forEach((field, f) => {
    // One sort per field: every group's values are then read off in order, not sorted again.
    const ascending = ascendingWithRows(columnOf(records, f + 1));
    for (const grouping of groupings) {
      const byGroup = valuesByGroup(ascending, grouping.ids, grouping.names.length);
      grouping.names.forEach((grp, id) => {
        rows.push({
          group_by: grouping.name,
          field,
          report_date: date,
          grp,
          institutions: grouping.sizes[id]!,
          ...statistics(byGroup.values.subarray(byGroup.starts[id]!, byGroup.starts[id + 1]!)),
        });
      });
    }
  });
  return rows;
}

/** Column `index` of the records; NaN stands for null. */
function columnOf(records: readonly unknown[][], index: number): Float64Array {
  const column = new Float64Array(records.length);
  for (let i = 0; i < records.length; i++) {
    const value = records[i]![index];
    column[i] = typeof value === 'number' ? value : Number.NaN;
  }
  return column;
}

/** Each record's group as a small integer, the groups' names and sizes. */
function groupIds(records: readonly unknown[][], groupOf: (record: unknown[]) => string) {
  const index = new Map<string, number>();
  const ids = new Int32Array(records.length);
  const sizes: number[] = [];
  records.forEach((record, i) => {
    const grp = groupOf(record);
    let id = index.get(grp);
    if (id === undefined) {
      id = sizes.length;
      index.set(grp, id);
      sizes.push(0);
    }
    ids[i] = id;
    sizes[id]! += 1;
  });
  return { ids, sizes, names: [...index.keys()] };
}

/** The values regrouped, each group's ascending, group `id` at [starts[id], starts[id + 1]). */
function valuesByGroup(ascending: AscendingColumn, ids: Int32Array, groups: number) {
  const { values, rows } = ascending;
  const starts = new Int32Array(groups + 1);
  for (let slot = 0; slot < values.length; slot++) starts[ids[rows[slot]!]! + 1]! += 1;
  for (let id = 0; id < groups; id++) starts[id + 1]! += starts[id]!;
  const next = starts.slice(0, groups);
  const out = new Float64Array(values.length);
  for (let slot = 0; slot < values.length; slot++) out[next[ids[rows[slot]!]!]!++] = values[slot]!;
  return { values: out, starts };
}

/** SPEC §5 statistics over ascending non-null values (quantiles as peers/stats.ts defines them). */
function statistics(sorted: Float64Array) {
  const count = sorted.length;
  if (count === 0) return { count, sum: null, mean: null, median: null, p25: null, p75: null };
  let sum = 0;
  for (let i = 0; i < count; i++) sum += sorted[i]!;
  return {
    count,
    sum,
    mean: sum / count,
    median: quantile(sorted, 0.5),
    p25: quantile(sorted, 0.25),
    p75: quantile(sorted, 0.75),
  };
}
