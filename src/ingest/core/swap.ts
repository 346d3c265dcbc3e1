/**
 * The atomic swap of one staged table, run inside the load's ONE transaction (which also bumps the
 * dataset version and records provenance): readers (WAL snapshots on SQLite, MVCC on PostgreSQL)
 * see either the old rows or the new ones, never a mix. The scope (staging.ts) becomes SQL here,
 * with identifiers quoted and values bound; the guard's shrink rule runs before any row is deleted.
 */
import { type RawBuilder, sql, type Transaction } from 'kysely';
import type { LoadScope } from '../../db/dataset.js';
import type { Database, TableName } from '../../db/tables.js';
import { checkShrink } from './guard.js';
import { type ColumnValues, type Stager, stagingTableName } from './staging.js';
import type { TableCounts } from './summary.js';

type Condition = RawBuilder<unknown>;

export interface SwapRules {
  /** The served rows are the demo dataset: the whole table goes, and no shrink rule applies. */
  readonly replacesDemo: boolean;
  /** Refuse when more than this percentage of the served rows in scope would be removed (null: never). */
  readonly maxShrinkPercent: number | null;
}

const ALWAYS: Condition = sql`1 = 1`;

function and(conditions: readonly Condition[]): Condition {
  return conditions.length === 0 ? ALWAYS : sql`(${sql.join(conditions, sql` and `)})`;
}

function columnsEqual(table: string, values: ColumnValues): Condition {
  return and(
    Object.entries(values).map(([column, value]) => sql`${sql.ref(`${table}.${column}`)} = ${value}`),
  );
}

function sameKey(key: readonly string[], left: string, right: string): Condition {
  return and(key.map((k) => sql`${sql.ref(`${left}.${k}`)} = ${sql.ref(`${right}.${k}`)}`));
}

/** The condition selecting the served rows this load replaces. */
function replacedRows(stager: Stager<TableName>, rules: SwapRules): Condition {
  const { spec, stagingTable } = stager;
  const scope = spec.replace;
  if (rules.replacesDemo || scope === 'all') return ALWAYS;
  const t = spec.table;
  const from = scope.stagedIn ? stagingTableName(stager.source, scope.stagedIn) : stagingTable;
  const parts = [
    sql`${sql.ref(`${t}.${scope.matching}`)} in (select ${sql.ref(scope.matching)} from ${sql.table(from)})`,
  ];
  if (scope.where) parts.push(columnsEqual(t, scope.where));
  if (scope.keepUnlessRestaged && spec.key.length > 0) {
    const restaged = sql`exists (select 1 from ${sql.table(stagingTable)} s where ${sameKey(spec.key, 's', t)})`;
    parts.push(sql`(not ${columnsEqual(t, scope.keepUnlessRestaged)} or ${restaged})`);
  }
  return and(parts);
}

async function count(trx: Transaction<Database>, query: RawBuilder<{ n: number | string }>): Promise<number> {
  const result = await query.execute(trx);
  return Number(result.rows[0]?.n ?? 0);
}

async function sum(trx: Transaction<Database>, column: string, from: RawBuilder<unknown>, where: Condition) {
  return count(trx, sql`select coalesce(sum(${sql.ref(column)}), 0) as n from ${from} where ${where}`);
}

/**
 * The guard's shrink rule, before anything is deleted. Packed records (`rowsPerRecord`) are weighed
 * by the rows they hold, so a filing re-delivered with half its positions counts as half removed.
 */
async function checkShrinkOf(
  trx: Transaction<Database>,
  stager: Stager<TableName>,
  where: Condition,
  counts: { removed: number; served: number },
  rules: SwapRules,
): Promise<void> {
  const limit = rules.replacesDemo ? null : rules.maxShrinkPercent;
  const weight = stager.spec.rowsPerRecord;
  if (limit === null || weight === undefined)
    return checkShrink(stager.spec.table, counts.removed, counts.served, limit);
  const served = await sum(trx, weight, sql.table(stager.spec.table), where);
  const staged = await sum(trx, weight, sql.table(stager.stagingTable), ALWAYS);
  checkShrink(stager.spec.table, Math.max(0, served - staged), served, limit);
}

/** Swaps one staged table into place; call inside the load's transaction. */
export async function swapTable(
  trx: Transaction<Database>,
  stager: Stager<TableName>,
  rules: SwapRules,
): Promise<TableCounts> {
  const { spec, stagingTable } = stager;
  const t = sql.table(spec.table);
  const s = sql.table(stagingTable);
  if (spec.prepare) await spec.prepare(trx, stagingTable);
  const where = replacedRows(stager, rules);
  const before = await count(trx, sql`select count(*) as n from ${t} where ${where}`);
  const restaged = sql`exists (select 1 from ${t} where ${where} and ${sameKey(spec.key, spec.table, 's')})`;
  const keyless = spec.key.length === 0;
  // A keyless table's rows are all replaced; outside a demo replacement it reports the net change.
  let updated = keyless
    ? Math.min(before, stager.staged)
    : await count(trx, sql`select count(*) as n from ${s} s where ${restaged}`);
  if (keyless && rules.replacesDemo) updated = 0;
  const removed = Math.max(0, before - updated);
  await checkShrinkOf(trx, stager, where, { removed, served: before }, rules);
  await sql`delete from ${t} where ${where}`.execute(trx);
  const keyServed = sql`exists (select 1 from ${t} where ${sameKey(spec.key, spec.table, 's')})`;
  const onlyNew = spec.insertOnlyNew && spec.key.length > 0;
  const kept = onlyNew ? await count(trx, sql`select count(*) as n from ${s} s where ${keyServed}`) : 0;
  const columns = sql.join(spec.columns.map((c) => sql.ref(c)));
  const values = sql.join(spec.columns.map((c) => sql.ref(`s.${c}`)));
  const filter = onlyNew ? sql` where not ${keyServed}` : sql``;
  await sql`insert into ${t} (${columns}) select ${values} from ${s} s${filter}`.execute(trx);
  const swapped = stager.staged - kept;
  return {
    table: spec.table,
    staged: stager.staged,
    inserted: Math.max(0, swapped - updated),
    updated,
    removed,
    kept,
  };
}

/** The load's scope in the table as the changes feed reports it (before the swap, from staging). */
export async function scopeOf(
  trx: Transaction<Database>,
  stager: Stager<TableName>,
  replacesDemo: boolean,
): Promise<LoadScope> {
  const scope = stager.spec.replace;
  if (replacesDemo || scope === 'all')
    return { table: stager.spec.table, replaces: 'all', values: null, more: 0 };
  const from = scope.stagedIn ? stagingTableName(stager.source, scope.stagedIn) : stager.stagingTable;
  const column = sql.ref(scope.matching);
  const staged = sql.table(from);
  const { rows } = await sql<{
    value: string | number;
  }>`select distinct ${column} as value from ${staged} order by 1 limit 20`.execute(trx);
  const distinct = await count(trx, sql`select count(distinct ${column}) as n from ${staged}`);
  const values = rows.map((row) => String(row.value));
  return {
    table: stager.spec.table,
    replaces: scope.matching,
    values,
    more: Math.max(0, distinct - values.length),
  };
}
