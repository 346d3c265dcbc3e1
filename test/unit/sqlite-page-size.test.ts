/**
 * The SQLite page size: a database regdata creates gets SQLITE_PAGE_SIZE pages (in WAL mode, set
 * before the first page is written); a database created earlier keeps its own page size and is
 * migrated, written and read as before.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { insertRows } from '../../src/db/bulk.js';
import { type DbHandle, openDatabase, SQLITE_PAGE_SIZE } from '../../src/db/connect.js';
import { migrateToLatest } from '../../src/db/migrate.js';

const pageSize = (sqlite: Database.Database) => sqlite.pragma('page_size', { simple: true });

async function writeAndRead(handle: DbHandle): Promise<number> {
  // Values larger than a 4 KiB page, as packed ones are, to exercise overflow pages too.
  const rows = Array.from({ length: 50 }, (_, i) => ({ series_id: 'S', date: `d${i}`, value: i }));
  await handle.db.transaction().execute((trx) => insertRows(handle, 'macro_observations', rows, trx));
  const sqlite = handle.sqlite as Database.Database;
  const big = 'x'.repeat(40_000);
  sqlite.exec(`create table scratch_big (v text); insert into scratch_big values ('${big}')`);
  const read = sqlite.prepare('select length(v) as n from scratch_big').get() as { n: number };
  expect(read.n).toBe(big.length);
  return (sqlite.prepare('select count(*) as n from macro_observations').get() as { n: number }).n;
}

describe('SQLite page size', () => {
  let dir: string | undefined;
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
    dir = undefined;
  });

  it('a new database file gets SQLITE_PAGE_SIZE pages, in WAL mode', async () => {
    dir = mkdtempSync(join(tmpdir(), 'regdata-page-size-'));
    const path = join(dir, 'new.sqlite');
    const handle = openDatabase(path);
    try {
      await migrateToLatest(handle);
      const sqlite = handle.sqlite as Database.Database;
      expect(SQLITE_PAGE_SIZE).toBe(16384);
      expect(pageSize(sqlite)).toBe(SQLITE_PAGE_SIZE);
      expect(sqlite.pragma('journal_mode', { simple: true })).toBe('wal');
      expect(await writeAndRead(handle)).toBe(50);
    } finally {
      await handle.close();
    }
    const reader = openDatabase(path, { readonly: true });
    try {
      expect(pageSize(reader.sqlite as Database.Database)).toBe(SQLITE_PAGE_SIZE);
    } finally {
      await reader.close();
    }
  });

  it('an existing database keeps its page size and is migrated, written and read', async () => {
    dir = mkdtempSync(join(tmpdir(), 'regdata-page-size-'));
    const path = join(dir, 'old.sqlite');
    const old = new Database(path);
    old.pragma('page_size = 4096');
    old.exec('create table earlier (a integer)');
    old.close();
    const handle = openDatabase(path);
    try {
      await migrateToLatest(handle);
      const sqlite = handle.sqlite as Database.Database;
      expect(pageSize(sqlite)).toBe(4096);
      expect(sqlite.pragma('journal_mode', { simple: true })).toBe('wal');
      expect(await writeAndRead(handle)).toBe(50);
    } finally {
      await handle.close();
    }
  });
});
