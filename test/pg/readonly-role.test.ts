/**
 * The API's PostgreSQL role can read and nothing else (STYLE: read-only for real), including on
 * tables the owner creates later (an ingest swaps in new tables), and even when the session asks
 * for read-write transactions. Also runs `regdata db create-readonly-role` through the real CLI.
 */
import { execFile } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configWith } from '../../src/config.js';
import { type DbHandle, openDatabase } from '../../src/db/connect.js';
import { createReadOnlyRole } from '../../src/db/roles.js';
import { startServer } from '../../src/server.js';
import { seedFailures } from '../fixtures/failures.js';
import {
  postgresBackendOrNull,
  TEST_READER_ROLE,
  type TestDatabase,
  withDatabase,
} from '../helpers/backends.js';

const run = promisify(execFile);
const backend = postgresBackendOrNull();

/** The SQLSTATE a statement fails with, or 'ok'. */
async function outcome(handle: DbHandle, statement: string): Promise<string> {
  try {
    await sql.raw(statement).execute(handle.db);
    return 'ok';
  } catch (error) {
    return (error as { code?: string }).code ?? (error as Error).message;
  }
}

const WRITES = [
  "insert into failures (id, name, closing_date) values (999, 'x', '2024-01-01')",
  "update failures set name = 'x'",
  'delete from failures',
  'truncate failures',
  'create table sneaky (id integer)',
  'drop table failures',
  'alter table failures add column sneaky integer',
];

describe.skipIf(!backend)('PostgreSQL read-only role', () => {
  let database: TestDatabase;
  let reader: DbHandle;

  beforeAll(async () => {
    database = await (backend as NonNullable<typeof backend>).create();
    await seedFailures(database.writer);
    reader = database.openReader();
  });
  afterAll(async () => {
    await reader?.close();
    await database?.drop();
  });

  it('can SELECT every table', async () => {
    const { rows } = await sql<{ n: number }>`select count(*) as n from failures`.execute(reader.db);
    expect(rows[0]?.n).toBeGreaterThan(0);
  });

  it.each(WRITES)('cannot write: %s', async (statement) => {
    // 25006: read-only transaction (default_transaction_read_only), 42501: permission denied.
    expect(['25006', '42501']).toContain(await outcome(reader, statement));
  });

  it('cannot write even after turning read-only transactions off: only SELECT is granted', async () => {
    // Its own one-connection handle, so the changed setting does not leak into the shared pool.
    const session = openDatabase(database.readerUrl, { poolSize: 1 });
    try {
      await sql`set default_transaction_read_only = off`.execute(session.db);
      for (const statement of WRITES) expect(await outcome(session, statement)).toBe('42501');
    } finally {
      await session.close();
    }
  });

  it('can read tables the owner creates later (staging tables swapped in by an ingest)', async () => {
    await sql`create table later_table (id integer)`.execute(database.writer.db);
    await sql`insert into later_table values (1), (2)`.execute(database.writer.db);
    const { rows } = await sql<{ n: number }>`select count(*) as n from later_table`.execute(reader.db);
    expect(rows[0]?.n).toBe(2);
    expect(await outcome(reader, 'insert into later_table values (3)')).toBe('25006');
  });

  it('opens even an owner URL read-only when asked to (as the API does)', async () => {
    const ownerReadOnly = openDatabase(database.url, { readonly: true });
    try {
      expect(await outcome(ownerReadOnly, 'select count(*) from failures')).toBe('ok');
      expect(await outcome(ownerReadOnly, 'delete from failures')).toBe('25006');
    } finally {
      await ownerReadOnly.close();
    }
  });

  it('serves the API through DATABASE_READ_URL (the read-only role), not the owner URL', async () => {
    // One dedicated observer connection, so no pool of the test itself shows up as "opened".
    const observer = openDatabase(database.url, { poolSize: 1 });
    const sessions = async () => {
      const { rows } = await sql<{ pid: number; usename: string }>`
        select pid, usename from pg_stat_activity
        where datname = current_database() and pid <> pg_backend_pid()`.execute(observer.db);
      return rows;
    };
    const before = new Set((await sessions()).map((r) => r.pid));
    const config = configWith({
      databaseUrl: database.url,
      databaseReadUrl: database.readerUrl,
      port: 0,
      host: '127.0.0.1',
      logLevel: 'silent',
      dbPoolSize: 2,
    });
    const app = await startServer(config);
    try {
      const address = app.server.address() as AddressInfo;
      const responses = await Promise.all(
        [1, 2, 3, 4].map((n) => fetch(`http://127.0.0.1:${address.port}/api/v1/failures?limit=${n}`)),
      );
      expect(responses.map((r) => r.status)).toEqual([200, 200, 200, 200]);
      const opened = (await sessions()).filter((r) => !before.has(r.pid));
      expect(opened.length).toBeGreaterThanOrEqual(1);
      // DB_POOL_SIZE query connections plus the one LISTEN connection that hears loads commit.
      expect(opened.length).toBeLessThanOrEqual(2 + 1);
      expect(new Set(opened.map((r) => r.usename))).toEqual(new Set([TEST_READER_ROLE]));
    } finally {
      await app.close();
      await observer.close();
    }
  });

  it('is idempotent and rejects names that are not plain identifiers', async () => {
    const again = await createReadOnlyRole(database.writer, 'regdata_test_reader');
    expect(again.some((s) => s.startsWith('grant select on all tables'))).toBe(true);
    await expect(createReadOnlyRole(database.writer, 'x; drop table failures')).rejects.toThrow(
      /invalid role name/,
    );
  });

  it('is created by `regdata db create-readonly-role` and that role cannot write', async () => {
    const role = `regdata_cli_${process.pid}`;
    const { stdout } = await run(
      'node_modules/.bin/vite-node',
      ['src/cli.ts', 'db', 'create-readonly-role', role, '--password', "it's secret"],
      { env: { ...process.env, DATABASE_URL: database.url, LOG_LEVEL: 'silent' } },
    );
    expect(stdout).toContain(`grant select on all tables in schema "public" to "${role}"`);
    const asRole = openDatabase(withDatabase(database.url, new URL(database.url).pathname.slice(1), role));
    try {
      expect(await outcome(asRole, 'select 1')).toBe('ok');
      expect(await outcome(asRole, 'delete from failures')).toBe('25006');
    } finally {
      await asRole.close();
      await sql.raw(`drop owned by ${role}; drop role ${role}`).execute(database.writer.db);
    }
  });
});
