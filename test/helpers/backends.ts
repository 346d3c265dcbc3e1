/**
 * Test databases built by the real migrations. Every HTTP suite runs once per backend: SQLite
 * always, PostgreSQL when TEST_DATABASE_URL is set (`.ci/run` sets it and REQUIRE_POSTGRES=1).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type DbHandle, openDatabase } from '../../src/db/connect.js';
import { migrateToLatest } from '../../src/db/migrate.js';

export interface TestDatabase {
  /** Owner handle: migrations done, use it to insert fixtures. */
  readonly writer: DbHandle;
  /** Opens a read-only handle, as the API gets in production. */
  openReader(): DbHandle;
  /** URL of the database, for CLI subprocesses. */
  readonly url: string;
  drop(): Promise<void>;
}

export interface Backend {
  readonly name: 'sqlite' | 'postgres';
  create(): Promise<TestDatabase>;
}

const sqliteBackend: Backend = {
  name: 'sqlite',
  async create() {
    const dir = mkdtempSync(join(tmpdir(), 'regdata-test-'));
    const url = join(dir, 'test.sqlite');
    const writer = openDatabase(url);
    await migrateToLatest(writer);
    return {
      writer,
      url,
      openReader: () => openDatabase(url, { readonly: true }),
      async drop() {
        await writer.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  },
};

export function testBackends(): Backend[] {
  return [sqliteBackend];
}
