/**
 * Staging and the atomic swap. A load writes into `staging_<source>_<table>` (a plain table with the
 * served table's columns, recreated at the start of every run, so a killed run leaves only a stale
 * staging table that the next run drops). The swap then replaces the served rows of the load's scope
 * inside ONE transaction that also bumps the dataset version and records provenance: readers (WAL
 * snapshots on SQLite, MVCC on PostgreSQL) see either the old rows or the new ones, never a mix.
 * All SQL here is portable between SQLite and PostgreSQL; identifiers are ours, never user input.
 */
import { type Insertable, type Kysely, sql, type Transaction } from 'kysely';
import { insertRows } from '../../db/bulk.js';
import type { DbHandle } from '../../db/connect.js';
import type { Database } from '../../db/tables.js';
import type { TableCounts, Tally } from './summary.js';
import type { TableName } from './types.js';

type Executor = Kysely<Database> | Transaction<Database>;

export interface StagingSpec<T extends TableName> {
  readonly table: T;
  /** Columns this load fills, in the order rows are built. */
  readonly columns: readonly (keyof Insertable<Database[T]> & string)[];
  /** The natural key (duplicates within one load are rejected); [] when the table has none. */
  readonly key: readonly string[];
  /** Served rows this load replaces: all of them, or those whose `column` value the load contains. */
  readonly replace: 'all' | { readonly column: string };
  /** SQL condition on served rows (`{t}` = the served table) narrowing the replaced scope. */
  readonly scopeWhere?: string;
  /** Served rows matching this condition are replaced only by a staged row with the same key. */
  readonly replaceOnlyByKey?: string;
  /** Served rows matching this condition are always removed (e.g. the synthetic demo rows). */
  readonly alwaysRemove?: string;
  /** Only staged rows whose key is not served (after the scoped delete) are swapped in. */
  readonly insertOnlyNew?: boolean;
  /** Rows buffered before a write (default 5,000); lower for large rows such as packed filings. */
  readonly flushEvery?: number;
  /** SQL run on the staging table (`{s}`) inside the swap transaction, before the swap. */
  readonly prepare?: string;
}

const FLUSH_ROWS = 5000;

export class Stager<T extends TableName> {
  private buffer: Insertable<Database[T]>[] = [];
  private readonly seen = new Set<string>();
  staged = 0;

  constructor(
    private readonly handle: DbHandle,
    readonly spec: StagingSpec<T>,
    readonly stagingTable: string,
    private readonly tally: Tally,
  ) {}

  /** Adds a row; a second row with the same key is rejected (the first one wins). */
  async add(row: Insertable<Database[T]>): Promise<boolean> {
    if (this.spec.key.length > 0) {
      const record = row as Record<string, unknown>;
      const key = this.spec.key.map((k) => String(record[k])).join('\u0000');
      if (this.seen.has(key)) {
        this.tally.reject(`duplicate ${this.spec.key.join(' + ')} in ${this.spec.table}`);
        return false;
      }
      this.seen.add(key);
    }
    this.buffer.push(row);
    if (this.buffer.length >= (this.spec.flushEvery ?? FLUSH_ROWS)) await this.flush();
    return true;
  }

  async flush(): Promise<void> {
    if (this.buffer.length === 0) return;
    const rows = this.buffer.map((row) => {
      const record = row as Record<string, unknown>;
      return Object.fromEntries(this.spec.columns.map((c) => [c, record[c] ?? null]));
    });
    this.buffer = [];
    const table = this.stagingTable as TableName;
    if (this.handle.sqlite) {
      const sqlite = this.handle.sqlite;
      sqlite.exec('begin');
      try {
        await insertRows(this.handle, table, rows as never);
        sqlite.exec('commit');
      } catch (error) {
        sqlite.exec('rollback');
        throw error;
      }
    } else {
      await this.handle.db.transaction().execute((trx) => insertRows(this.handle, table, rows as never, trx));
    }
    this.staged += rows.length;
  }
}

export function stagingTableName(source: string, table: string): string {
  return `staging_${source}_${table}`.replace(/[^A-Za-z0-9_]/g, '_').toLowerCase();
}

/** (Re)creates the empty staging table with the served table's columns and a key index. */
export async function createStaging<T extends TableName>(
  handle: DbHandle,
  source: string,
  spec: StagingSpec<T>,
  tally: Tally,
): Promise<Stager<T>> {
  const name = stagingTableName(source, spec.table);
  // SQLite: a TEMP table, private to the load's one connection and kept in a temporary file that
  // is never journaled to the WAL nor checkpointed into the database: staged rows are written once
  // instead of three times, and vanish with the process if it is killed. (Stale staging tables of
  // earlier versions, in the main schema, are dropped too.) PostgreSQL needs a plain table, since
  // the load's statements use several pooled connections.
  const temporary = handle.sqlite ? 'temp ' : '';
  if (handle.sqlite) await sql.raw(`drop table if exists temp.${name}`).execute(handle.db);
  await sql.raw(`drop table if exists ${handle.sqlite ? 'main.' : ''}${name}`).execute(handle.db);
  await sql
    .raw(
      `create ${temporary}table ${name} as select ${spec.columns.join(', ')} from ${spec.table} where 1 = 0`,
    )
    .execute(handle.db);
  if (spec.key.length > 0) {
    await sql.raw(`create unique index ${name}_key on ${name} (${spec.key.join(', ')})`).execute(handle.db);
  }
  return new Stager(handle, spec, name, tally);
}

export async function dropStaging(handle: DbHandle, stager: Stager<TableName>): Promise<void> {
  await sql.raw(`drop table if exists ${stager.stagingTable}`).execute(handle.db);
}

async function count(db: Executor, query: string): Promise<number> {
  const result = await sql.raw<{ n: number | string }>(query).execute(db);
  return Number(result.rows[0]?.n ?? 0);
}

function keyMatch(spec: StagingSpec<TableName>, left: string, right: string): string {
  return spec.key.map((k) => `${left}.${k} = ${right}.${k}`).join(' and ');
}

/** The condition selecting the served rows this load replaces. */
function replacedRows(spec: StagingSpec<TableName>, staging: string, replaceAll: boolean): string {
  const t = spec.table;
  const fill = (condition: string) => condition.replaceAll('{t}', t);
  const parts: string[] = [];
  if (!replaceAll && spec.replace !== 'all') {
    const column = spec.replace.column;
    parts.push(`${t}.${column} in (select ${column} from ${staging})`);
  }
  if (spec.scopeWhere) parts.push(`(${fill(spec.scopeWhere)})`);
  if (spec.replaceOnlyByKey && spec.key.length > 0) {
    parts.push(
      `(not (${fill(spec.replaceOnlyByKey)}) or exists (select 1 from ${staging} s where ${keyMatch(spec, 's', t)}))`,
    );
  }
  const scoped = parts.length > 0 ? parts.join(' and ') : '1 = 1';
  return spec.alwaysRemove ? `(${scoped}) or (${fill(spec.alwaysRemove)})` : scoped;
}

/**
 * Swaps one staged table into place; call inside the load's transaction. `replaceAll` widens the
 * scope to the whole table (used when the served rows are the demo dataset).
 */
export async function swapTable(
  trx: Executor,
  stager: Stager<TableName>,
  replaceAll: boolean,
): Promise<TableCounts> {
  const { spec, stagingTable: staging } = stager;
  const t = spec.table;
  if (spec.prepare) await sql.raw(spec.prepare.replaceAll('{s}', staging)).execute(trx);
  const where = replacedRows(spec, staging, replaceAll);
  const before = await count(trx, `select count(*) as n from ${t} where ${where}`);
  const updated =
    spec.key.length === 0
      ? 0
      : await count(
          trx,
          `select count(*) as n from ${staging} s where exists (select 1 from ${t} where (${where}) and ${keyMatch(spec, t, 's')})`,
        );
  await sql.raw(`delete from ${t} where ${where}`).execute(trx);
  const notServed =
    spec.insertOnlyNew && spec.key.length > 0
      ? ` where not exists (select 1 from ${t} where ${keyMatch(spec, t, 's')})`
      : '';
  const kept = notServed
    ? await count(
        trx,
        `select count(*) as n from ${staging} s where exists (select 1 from ${t} where ${keyMatch(spec, t, 's')})`,
      )
    : 0;
  const columns = spec.columns.join(', ');
  await sql
    .raw(
      `insert into ${t} (${columns}) select ${spec.columns.map((c) => `s.${c}`).join(', ')} from ${staging} s${notServed}`,
    )
    .execute(trx);
  const swapped = stager.staged - kept;
  return {
    table: t,
    staged: stager.staged,
    inserted: Math.max(0, swapped - updated),
    updated,
    removed: Math.max(0, before - updated),
    kept,
  };
}
