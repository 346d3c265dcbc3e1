/**
 * PostgreSQL roles: the API should connect as a role that can only read (STYLE: read-only for
 * real). `regdata db create-readonly-role` runs createReadOnlyRole with the owner's DATABASE_URL.
 */
import { sql } from 'kysely';
import pg from 'pg';
import type { DbHandle } from './connect.js';

export interface ReadOnlyRoleOptions {
  /** Login password; omit for trust/peer/certificate authentication or to keep the current one. */
  readonly password?: string | null;
  /** Schema holding regdata's tables. */
  readonly schema?: string;
}

const ROLE_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

export function assertRoleName(name: string): void {
  if (!ROLE_NAME.test(name)) {
    throw new Error(
      `invalid role name ${JSON.stringify(name)}: use lower-case letters, digits and _ (at most 63)`,
    );
  }
}

/** SQLSTATEs of a concurrent CREATE ROLE losing the race: the role exists, which is all we want. */
const ROLE_EXISTS = new Set(['42710', '23505']);

/**
 * Runs an ALTER ROLE, again if another session altered the same role at that moment: PostgreSQL
 * then fails the later one with "tuple concurrently updated" (XX000) instead of waiting. Databases
 * set up in parallel (one role reading several databases) meet it.
 */
async function alterRole(handle: DbHandle, statement: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await sql.raw(statement).execute(handle.db);
      return;
    } catch (error) {
      const { code, message } = error as { code?: string; message?: string };
      if (code !== 'XX000' || !/concurrently updated/.test(message ?? '') || attempt === 5) throw error;
    }
  }
}

async function ensureLoginRole(handle: DbHandle, name: string, password: string | null | undefined) {
  const passwordClause = password ? ` password ${pg.escapeLiteral(password)}` : '';
  const exists = await sql<{ n: number }>`select 1 as n from pg_roles where rolname = ${name}`.execute(
    handle.db,
  );
  if (exists.rows.length > 0) {
    await alterRole(handle, `alter role ${pg.escapeIdentifier(name)} with login${passwordClause}`);
    return;
  }
  try {
    await sql
      .raw(
        `create role ${pg.escapeIdentifier(name)} with login nosuperuser nocreatedb nocreaterole${passwordClause}`,
      )
      .execute(handle.db);
  } catch (error) {
    if (!ROLE_EXISTS.has((error as { code?: string }).code ?? '')) throw error;
  }
}

/**
 * Creates (or updates) a login role that can connect to the current database and SELECT every
 * table, including tables created later by the owner (ingest swaps in new tables), and whose
 * transactions are read-only by default. Idempotent. Returns the SQL it ran, for the CLI to show.
 */
export async function createReadOnlyRole(
  handle: DbHandle,
  name: string,
  options: ReadOnlyRoleOptions = {},
): Promise<string[]> {
  if (handle.dialect !== 'postgres') {
    throw new Error('read-only roles are a PostgreSQL feature (the API already opens SQLite read-only)');
  }
  assertRoleName(name);
  const schema = options.schema ?? 'public';
  assertRoleName(schema);
  await ensureLoginRole(handle, name, options.password);
  const database = await sql<{ name: string }>`select current_database() as name`.execute(handle.db);
  const role = pg.escapeIdentifier(name);
  const schemaId = pg.escapeIdentifier(schema);
  const statements = [
    `grant connect on database ${pg.escapeIdentifier(database.rows[0]?.name ?? '')} to ${role}`,
    `grant usage on schema ${schemaId} to ${role}`,
    `grant select on all tables in schema ${schemaId} to ${role}`,
    // Tables the owner creates later (new migrations, ingest staging tables swapped in).
    `alter default privileges for role current_user in schema ${schemaId} grant select on tables to ${role}`,
    // Belt and braces: even `SET default_transaction_read_only = off` leaves only SELECT granted.
    `alter role ${role} set default_transaction_read_only = on`,
  ];
  for (const statement of statements) {
    if (statement.startsWith('alter role')) await alterRole(handle, statement);
    else await sql.raw(statement).execute(handle.db);
  }
  return statements;
}
