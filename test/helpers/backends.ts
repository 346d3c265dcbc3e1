/**
 * Test databases built by the real migrations. Every HTTP suite runs once per backend: SQLite
 * always, PostgreSQL when TEST_DATABASE_URL is set and reachable (`.ci/run` sets it and
 * REQUIRE_POSTGRES=1, which turns "unreachable" into a failure; see test/helpers/postgres-setup.ts).
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { inject } from 'vitest';
import { type DbHandle, openDatabase } from '../../src/db/connect.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { createReadOnlyRole } from '../../src/db/roles.js';

export interface TestDatabase {
  /** Owner handle: migrations done, use it to insert fixtures. */
  readonly writer: DbHandle;
  /** Opens a read-only handle, as the API gets in production. */
  openReader(): DbHandle;
  /** URL of the database (owner role), for CLI subprocesses. */
  readonly url: string;
  /** URL the API uses: the same file, or the PostgreSQL database as the read-only role. */
  readonly readerUrl: string;
  drop(): Promise<void>;
}

export interface Backend {
  readonly name: 'sqlite' | 'postgres';
  create(): Promise<TestDatabase>;
}

/** The login role every PostgreSQL test reader connects as (cluster-wide, created on demand). */
export const TEST_READER_ROLE = 'regdata_test_reader';

export const sqliteBackend: Backend = {
  name: 'sqlite',
  async create() {
    const dir = mkdtempSync(join(tmpdir(), 'regdata-test-'));
    const url = join(dir, 'test.sqlite');
    const writer = openDatabase(url);
    await migrateToLatest(writer);
    return {
      writer,
      url,
      readerUrl: url,
      openReader: () => openDatabase(url, { readonly: true }),
      async drop() {
        await writer.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  },
};

/** The same server as `base` with another database and/or user. */
export function withDatabase(base: string, database: string, user?: string): string {
  const url = new URL(base);
  url.pathname = `/${database}`;
  if (user !== undefined) {
    url.username = user;
    url.password = '';
  }
  return url.toString();
}

/** Runs one statement on the admin database (CREATE/DROP DATABASE cannot run in a pool transaction). */
export async function adminQuery(adminUrl: string, text: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

function postgresBackend(adminUrl: string): Backend {
  return {
    name: 'postgres',
    async create() {
      const name = `regdata_t_${process.pid}_${randomBytes(4).toString('hex')}`;
      await adminQuery(adminUrl, `create database ${name}`);
      const url = withDatabase(adminUrl, name);
      const writer = openDatabase(url);
      try {
        await migrateToLatest(writer);
        await createReadOnlyRole(writer, TEST_READER_ROLE);
      } catch (error) {
        await writer.close();
        await adminQuery(adminUrl, `drop database if exists ${name} with (force)`);
        throw error;
      }
      const readerUrl = withDatabase(adminUrl, name, TEST_READER_ROLE);
      return {
        writer,
        url,
        readerUrl,
        openReader: () =>
          openDatabase(readerUrl, { readonly: true, poolSize: 4, statementTimeoutMs: 10_000 }),
        async drop() {
          await writer.close();
          await adminQuery(adminUrl, `drop database if exists ${name} with (force)`);
        },
      };
    },
  };
}

/** What the global setup found out about PostgreSQL (see postgres-setup.ts). */
export interface PostgresProbe {
  readonly url: string | null;
  readonly skipReason: string | null;
}

export function postgresProbe(): PostgresProbe {
  try {
    return inject('postgres');
  } catch {
    // Outside the project's vitest config (no global setup): trust the variable.
    const url = process.env.TEST_DATABASE_URL ?? null;
    return { url, skipReason: url ? null : 'TEST_DATABASE_URL is not set' };
  }
}

export function testBackends(): Backend[] {
  const probe = postgresProbe();
  return probe.url && !probe.skipReason ? [sqliteBackend, postgresBackend(probe.url)] : [sqliteBackend];
}

/** Just the PostgreSQL backend, or null when it is skipped (for PostgreSQL-only suites). */
export function postgresBackendOrNull(): Backend | null {
  return testBackends().find((b) => b.name === 'postgres') ?? null;
}
