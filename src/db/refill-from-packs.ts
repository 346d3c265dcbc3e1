/**
 * What the down migrations of the packed stores share (0014 packed changes, 0016 security
 * positions): the previous release's row-per-item table refilled from the packed values. The packs
 * are read a page at a time in key order, so memory stays bounded however large the database, and
 * their rows go many to an INSERT across packs, not a query and an INSERT per pack.
 */
import { type Kysely, sql } from 'kysely';

/** Bind parameters per INSERT: within SQLite's limit (32,766) and PostgreSQL's (65,535). */
const PARAMETERS_PER_INSERT = 30_000;
/** Packed values read per query (a few MB for typical portfolios). */
const PACKS_PER_PAGE = 500;

export interface PackedStore<Key extends string, Row extends object> {
  /** The packed table, its two key columns in primary-key order, and the column holding the pack. */
  readonly table: string;
  readonly keys: readonly [Key, Key];
  readonly column: string;
  /** The rows one pack holds, for the table being refilled. */
  rowsOf(key: Record<Key, string>, pack: Uint8Array): Row[];
}

/** Inserts into `into` the rows of every pack of `store`. */
export async function refillFromPacks<Key extends string, Row extends object>(
  db: Kysely<unknown>,
  into: string,
  store: PackedStore<Key, Row>,
): Promise<void> {
  const first = sql.ref(store.keys[0]);
  const second = sql.ref(store.keys[1]);
  let pending: Row[] = [];
  const insert = async (rows: Row[]) => {
    await db
      .insertInto(into as never)
      .values(rows as never)
      .execute();
  };
  let after: readonly [string, string] | null = null;
  for (;;) {
    const where = after ? sql`where (${first}, ${second}) > (${after[0]}, ${after[1]})` : sql``;
    const { rows } = await sql<Record<string, unknown>>`
      select ${first} as a, ${second} as b, ${sql.ref(store.column)} as pack from ${sql.table(store.table)}
      ${where} order by ${first}, ${second} limit ${PACKS_PER_PAGE}`.execute(db);
    for (const row of rows) {
      const key = { [store.keys[0]]: row.a, [store.keys[1]]: row.b } as Record<Key, string>;
      for (const item of store.rowsOf(key, row.pack as Uint8Array)) pending.push(item);
      const perInsert = rowsPerInsert(pending[0]);
      while (pending.length >= perInsert) {
        await insert(pending.slice(0, perInsert));
        pending = pending.slice(perInsert);
      }
    }
    if (rows.length < PACKS_PER_PAGE) break;
    const last = rows[rows.length - 1] as Record<string, unknown>;
    after = [last.a as string, last.b as string];
  }
  if (pending.length > 0) await insert(pending);
}

function rowsPerInsert(row: object | undefined): number {
  return row
    ? Math.max(1, Math.floor(PARAMETERS_PER_INSERT / Object.keys(row).length))
    : Number.POSITIVE_INFINITY;
}
