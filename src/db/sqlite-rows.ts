/**
 * The better-sqlite3 database as Kysely's SqliteDialect sees it, with cheaper result rows.
 *
 * better-sqlite3 builds every row object in C++, adding one property at a time through V8's API;
 * for the API's pages (hundreds to thousands of rows) that was most of a query's cost. Here a
 * SELECT fetches its rows as arrays (`raw` mode) and turns each into an object with a small
 * function compiled once per list of column names — one object literal, so every row shares one
 * hidden class. Same objects, same keys in the same order, same values (a repeated column name
 * keeps its last value, as before; a column named `__proto__`, which better-sqlite3 dropped, is an
 * own property). Measured on the full-scale demo: a 500-row page of banks 0.64 → 0.43 ms, a 2.1 MB
 * portfolio's 11,429 rows 19.5 → 12.8 ms. Statements that return no rows (writes) are untouched.
 *
 * Prepared statements are kept per SQL text (Kysely asks for a new one for every query): SQLite
 * parsing and planning the same text again was the largest single cost of a small answer (11 % of
 * `/api/meta`'s CPU, ~20–50 µs a query). A statement still being iterated (`busy`) is not shared: a
 * fresh one is prepared for that use.
 */
import type SqliteDatabase from 'better-sqlite3';
import type { SqliteDatabase as KyselySqliteDatabase, SqliteStatement } from 'kysely';

type Row = Record<string, unknown>;
type MakeRow = (values: unknown[]) => Row;

const makers = new Map<string, MakeRow>();
const MAX_MAKERS = 1000;
/** Prepared statements kept per connection (bounded: SQL text with inlined values would grow it). */
const MAX_STATEMENTS = 1000;

/** A function building `{ [names[0]]: values[0], … }`, cached per list of names. */
function rowMaker(names: readonly string[]): MakeRow {
  const key = names.join('\u0000');
  let make = makers.get(key);
  if (!make) {
    // Computed keys define own properties whatever the name (a literal `__proto__:` would not).
    const fields = names.map((name, i) => `[${JSON.stringify(name)}]: values[${i}]`).join(', ');
    make = new Function('values', `return { ${fields} };`) as MakeRow;
    if (makers.size >= MAX_MAKERS) makers.delete(makers.keys().next().value as string);
    makers.set(key, make);
  }
  return make;
}

function fastReader(stmt: SqliteDatabase.Statement): SqliteStatement {
  stmt.raw(true);
  // The column names are read once per statement (`columns()` builds an object per column: 6 % of a
  // small answer's CPU when read per execution), and again whenever a row's width differs from
  // them: SQLite re-prepares a statement after a schema change (`select *` after a migration added
  // a column), and its rows then carry the new columns.
  let names: string[] | null = null;
  let make: MakeRow = () => ({});
  const makerFor = (width: number): MakeRow => {
    if (names === null || names.length !== width) {
      names = stmt.columns().map((column) => column.name);
      make = rowMaker(names);
    }
    return make;
  };
  return {
    reader: true,
    all(parameters) {
      const rows = stmt.all(parameters) as unknown[][];
      if (rows.length === 0) return rows;
      const build = makerFor((rows[0] as unknown[]).length);
      for (let i = 0; i < rows.length; i++) (rows as unknown[])[i] = build(rows[i] as unknown[]);
      return rows;
    },
    run: (parameters) => stmt.run(parameters),
    *iterate(parameters) {
      for (const values of stmt.iterate(parameters) as Iterable<unknown[]>)
        yield makerFor(values.length)(values);
    },
  };
}

export function withFastRows(sqlite: SqliteDatabase.Database): KyselySqliteDatabase {
  const prepared = new Map<string, { stmt: SqliteDatabase.Statement; wrapped: SqliteStatement }>();
  const fresh = (sql: string) => {
    const stmt = sqlite.prepare(sql);
    return { stmt, wrapped: stmt.reader ? fastReader(stmt) : stmt };
  };
  return {
    close: () => sqlite.close(),
    prepare(sql: string): SqliteStatement {
      const known = prepared.get(sql);
      if (known) return known.stmt.busy ? fresh(sql).wrapped : known.wrapped;
      const made = fresh(sql);
      if (prepared.size >= MAX_STATEMENTS) prepared.delete(prepared.keys().next().value as string);
      prepared.set(sql, made);
      return made.wrapped;
    },
  };
}
