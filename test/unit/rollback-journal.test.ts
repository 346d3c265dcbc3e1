/**
 * withRollbackJournalWhenAlone (the demo's build into an empty SQLite file): with no other
 * connection it writes through a rollback journal (no WAL file grows) and returns to WAL; a reader
 * that holds the file open keeps the WAL and its snapshot; a failed build rolls back all the same.
 */
import { existsSync, statSync } from 'node:fs';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { insertRows, withRollbackJournalWhenAlone } from '../../src/db/bulk.js';
import { type DbHandle, openDatabase } from '../../src/db/connect.js';
import { sqliteBackend, type TestDatabase } from '../helpers/backends.js';

const ROWS = Array.from({ length: 20_000 }, (_, i) => ({ series_id: 'S', date: `d${i}`, value: i }));

const journalMode = (handle: DbHandle) => handle.sqlite?.pragma('journal_mode', { simple: true });
const walBytes = (database: TestDatabase) => {
  const wal = `${database.url}-wal`;
  return existsSync(wal) ? statSync(wal).size : 0;
};
const countOf = (sqlite: Database.Database) =>
  (sqlite.prepare('select count(*) as n from macro_observations').get() as { n: number }).n;

async function insertAll(handle: DbHandle): Promise<void> {
  await handle.db.transaction().execute(async (trx) => {
    await insertRows(handle, 'macro_observations', ROWS, trx);
  });
}

describe('withRollbackJournalWhenAlone (SQLite)', () => {
  let database: TestDatabase | undefined;
  afterEach(async () => {
    await database?.drop();
    database = undefined;
  });

  it('alone: builds through a rollback journal, writes no WAL, then returns to WAL', async () => {
    database = await sqliteBackend.create();
    const handle = database.writer;
    expect(journalMode(handle)).toBe('wal');
    const during = await withRollbackJournalWhenAlone(handle, async () => {
      await insertAll(handle);
      return { mode: journalMode(handle), wal: walBytes(database as TestDatabase) };
    });
    expect(during).toEqual({ mode: 'delete', wal: 0 });
    expect(journalMode(handle)).toBe('wal');
    const reader = new Database(database.url, { readonly: true });
    try {
      expect(countOf(reader)).toBe(ROWS.length);
    } finally {
      reader.close();
    }
  });

  it('with a reader holding the file open: keeps the WAL, and the reader its snapshot', async () => {
    database = await sqliteBackend.create();
    const handle = database.writer;
    const reader = new Database(database.url, { readonly: true });
    try {
      expect(countOf(reader)).toBe(0);
      const during = await withRollbackJournalWhenAlone(handle, async () => {
        const mode = journalMode(handle);
        await handle.db.transaction().execute(async (trx) => {
          await insertRows(handle, 'macro_observations', ROWS, trx);
          // Not blocked and not torn: the reader still sees the snapshot before the transaction.
          expect(countOf(reader)).toBe(0);
        });
        return { mode, wal: walBytes(database as TestDatabase) };
      });
      expect(during.mode).toBe('wal');
      expect(during.wal).toBeGreaterThan(0);
      expect(countOf(reader)).toBe(ROWS.length);
    } finally {
      reader.close();
    }
    expect(journalMode(handle)).toBe('wal');
  });

  it('a writable open meanwhile fails, naming the likely cause', async () => {
    database = await sqliteBackend.create();
    const handle = database.writer;
    const url = database.url;
    let failure: unknown;
    await withRollbackJournalWhenAlone(handle, async () => {
      await handle.db.transaction().execute(async (trx) => {
        await insertRows(handle, 'macro_observations', ROWS, trx);
        expect(journalMode(handle)).toBe('delete');
        try {
          await openDatabase(url).close();
        } catch (error) {
          failure = error;
        }
      });
    });
    expect(failure).toBeInstanceOf(Error);
    expect((failure as Error).message).toContain('is locked: another process is writing it outside the WAL');
    expect((failure as Error).message).toContain('The first load into an empty SQLite file');
    expect(((failure as Error).cause as { code?: string }).code).toMatch(/^SQLITE_BUSY/);
    // The failed open left nothing behind: the load committed and the file is back in WAL mode.
    expect(journalMode(handle)).toBe('wal');
    const reader = new Database(url, { readonly: true });
    try {
      expect(countOf(reader)).toBe(ROWS.length);
    } finally {
      reader.close();
    }
  });

  it('a failed build leaves the file as it was, in WAL mode', async () => {
    database = await sqliteBackend.create();
    const handle = database.writer;
    await insertRows(handle, 'macro_series', [
      {
        id: 'S',
        title: 'kept',
        units: null,
        frequency: 'Daily',
        seasonal_adjustment: null,
        last_updated: null,
      },
    ]);
    await expect(
      withRollbackJournalWhenAlone(handle, async () => {
        await handle.db.transaction().execute(async (trx) => {
          await insertRows(handle, 'macro_observations', ROWS, trx);
          await trx.deleteFrom('macro_series').execute();
          throw new Error('the build failed');
        });
      }),
    ).rejects.toThrow('the build failed');
    expect(journalMode(handle)).toBe('wal');
    expect(existsSync(`${database.url}-journal`)).toBe(false);
    const reader = new Database(database.url, { readonly: true });
    try {
      expect(countOf(reader)).toBe(0);
      expect(reader.prepare('select title from macro_series').all()).toEqual([{ title: 'kept' }]);
    } finally {
      reader.close();
    }
  });
});
