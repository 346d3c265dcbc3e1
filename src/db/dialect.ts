/**
 * The few places where SQLite and PostgreSQL need different DDL, for migrations (which only see a
 * Kysely<unknown>). Query code stays portable and never needs these.
 */
import { type ColumnDefinitionBuilder, type Kysely, PostgresAdapter } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: works for any schema type, including migrations' Kysely<unknown>
export function isPostgres(db: Kysely<any>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

/**
 * An `integer primary key` that numbers inserted rows by itself: SQLite's rowid alias does that
 * already; PostgreSQL needs an identity column. Use as `.addColumn('id', 'integer', autoIncrementKey(db))`.
 */
// biome-ignore lint/suspicious/noExplicitAny: see isPostgres
export function autoIncrementKey(db: Kysely<any>) {
  const postgres = isPostgres(db);
  return (column: ColumnDefinitionBuilder) =>
    postgres ? column.primaryKey().generatedByDefaultAsIdentity() : column.primaryKey();
}
