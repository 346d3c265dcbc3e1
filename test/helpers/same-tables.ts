/**
 * Compares every table of two SQLite files row for row, in SQLite itself (both attached, EXCEPT both
 * ways), leaving out the columns that record when something ran. Returns the tables that differ,
 * with how many rows each side has that the other lacks (a differing row count counts as a difference).
 */
import Database from 'better-sqlite3';

/** When a load ran and how long it took: the only values two builds of the same data may differ in. */
const CLOCK_COLUMNS = new Set(['loaded_at', 'duration_ms', 'updated_at', 'timestamp']);

export interface TableDifference {
  readonly table: string;
  readonly onlyLeft: number;
  readonly onlyRight: number;
}

export function differingTables(left: string, right: string): TableDifference[] {
  const db = new Database(left, { readonly: true });
  try {
    db.prepare('attach database ? as other').run(right);
    const [mine, theirs] = [tablesOf(db, 'main'), tablesOf(db, 'other')];
    const tables = [...new Set([...mine, ...theirs])];
    const missing = tables.filter((table) => !mine.includes(table) || !theirs.includes(table));
    if (missing.length > 0) throw new Error(`tables in one file only: ${missing.join(', ')}`);
    const differences: TableDifference[] = [];
    for (const table of tables) {
      const columns = (db.prepare(`select name from pragma_table_info(?)`).all(table) as { name: string }[])
        .map((column) => column.name)
        .filter((name) => !CLOCK_COLUMNS.has(name))
        .map((name) => `"${name}"`)
        .join(', ');
      const count = (a: string, b: string) =>
        (
          db
            .prepare(
              `select count(*) as n from (select ${columns} from ${a}."${table}" except select ${columns} from ${b}."${table}")`,
            )
            .get() as { n: number }
        ).n;
      const rows = (schema: string) =>
        (db.prepare(`select count(*) as n from ${schema}."${table}"`).get() as { n: number }).n;
      const [onlyLeft, onlyRight] = [count('main', 'other'), count('other', 'main')];
      if (onlyLeft > 0 || onlyRight > 0 || rows('main') !== rows('other'))
        differences.push({ table, onlyLeft, onlyRight });
    }
    return differences;
  } finally {
    db.close();
  }
}

function tablesOf(db: Database.Database, schema: 'main' | 'other'): string[] {
  return (
    db
      .prepare(`select name from ${schema}.sqlite_master where type = 'table' and name not like 'sqlite_%'`)
      .all() as {
      name: string;
    }[]
  ).map((row) => row.name);
}
