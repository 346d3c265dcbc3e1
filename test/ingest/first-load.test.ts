/**
 * A first load into an empty SQLite file writes its pages once, through a rollback journal
 * (run.ts, withRollbackJournalWhenAlone in db/bulk.ts), and only then: a later load, or a first
 * load beside a reader that holds the file open, keeps the WAL and the reader its snapshot. A
 * failed or killed first load leaves the file empty, intact and in WAL mode. SQLite only: the
 * journal is SQLite's.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { configWith } from '../../src/config.js';
import { openDatabase } from '../../src/db/connect.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { runSource } from '../../src/ingest/core/run.js';
import type { IngestSource } from '../../src/ingest/core/types.js';
import { sqliteBackend, type TestDatabase } from '../helpers/backends.js';
import { startCli } from './helpers/cli.js';

const SERIES = Array.from({ length: 5000 }, (_, i) => ({
  id: `S${i}`,
  title: `series ${i}`,
  units: null,
  frequency: 'Daily',
  seasonal_adjustment: null,
  last_updated: null,
}));

/** A source replacing every macro series, noting the journal mode its swap runs in. */
function seriesSource(modes: string[], fail = false): IngestSource {
  return {
    name: 'fred',
    group: 'banking',
    description: 'test series',
    async run(ctx) {
      const stager = await ctx.stage({
        table: 'macro_series',
        columns: ['id', 'title', 'units', 'frequency', 'seasonal_adjustment', 'last_updated'],
        key: ['id'],
        replace: 'all',
      });
      for (const row of SERIES) await stager.add(row);
      ctx.onSwap(async () => {
        const sqlite = ctx.handle.sqlite;
        // The journal mode, and FULL (2) or NORMAL (1) syncing: a rollback journal is synced in full.
        modes.push(
          `${sqlite?.pragma('journal_mode', { simple: true })} ${sqlite?.pragma('synchronous', { simple: true })}`,
        );
        if (fail) throw new Error('the swap failed');
      });
    },
  };
}

const load = (database: TestDatabase, source: IngestSource) =>
  runSource(source, {
    handle: database.writer,
    config: configWith({ databaseUrl: database.url }),
    options: { from: [] },
    progressMode: 'none',
    log: () => {},
  });

const countIn = (sqlite: Database.Database, table: string) =>
  (sqlite.prepare(`select count(*) as n from ${table}`).get() as { n: number }).n;

describe('a first load into an empty SQLite file', () => {
  let database: TestDatabase | undefined;
  afterEach(async () => {
    await database?.drop();
    database = undefined;
  });

  it('alone: swaps through a rollback journal, then WAL again; a second load keeps the WAL', async () => {
    database = await sqliteBackend.create();
    const modes: string[] = [];
    expect((await load(database, seriesSource(modes))).ok).toBe(true);
    expect(modes).toEqual(['delete 2']);
    expect(database.writer.sqlite?.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(database.writer.sqlite?.pragma('synchronous', { simple: true })).toBe(1); // NORMAL again
    const reader = new Database(database.url, { readonly: true });
    try {
      expect(countIn(reader, 'macro_series')).toBe(SERIES.length);
    } finally {
      reader.close();
    }
    // Something is loaded now: a server may start beside the next load, which so keeps the WAL,
    // alone as it is.
    expect((await load(database, seriesSource(modes))).ok).toBe(true);
    expect(modes).toEqual(['delete 2', 'wal 1']);
  });

  it('beside a reader holding the file open: keeps the WAL, the reader its snapshot', async () => {
    database = await sqliteBackend.create();
    const reader = new Database(database.url, { readonly: true });
    try {
      // A connection holds the WAL open from its first read on (a server reads as it starts).
      expect(countIn(reader, 'macro_series')).toBe(0);
      const modes: string[] = [];
      const seen: number[] = [];
      const source = seriesSource(modes);
      const run = source.run.bind(source);
      source.run = async (ctx) => {
        await run(ctx);
        ctx.onSwap(async () => {
          seen.push(countIn(reader, 'macro_series')); // not blocked, and the empty snapshot
        });
      };
      expect((await load(database, source)).ok).toBe(true);
      expect(modes).toEqual(['wal 1']);
      expect(seen).toEqual([0]);
      expect(countIn(reader, 'macro_series')).toBe(SERIES.length);
    } finally {
      reader.close();
    }
  });

  it('a failed first load leaves the file empty, in WAL mode, with no journal', async () => {
    database = await sqliteBackend.create();
    const modes: string[] = [];
    const summary = await load(database, seriesSource(modes, true));
    expect(summary.ok).toBe(false);
    expect(summary.error).toContain('the swap failed');
    expect(modes).toEqual(['delete 2']);
    expect(database.writer.sqlite?.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(database.writer.sqlite?.pragma('synchronous', { simple: true })).toBe(1);
    expect(existsSync(`${database.url}-journal`)).toBe(false);
    const reader = new Database(database.url, { readonly: true });
    try {
      expect(countIn(reader, 'macro_series')).toBe(0);
      expect(countIn(reader, 'sources')).toBe(0);
    } finally {
      reader.close();
    }
  });

  it('a first load killed inside its swap is rolled back by the next open', {
    timeout: 180_000,
  }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'regdata-first-load-'));
    try {
      const url = join(dir, 'fresh.sqlite');
      const file = openDatabase(url);
      await migrateToLatest(file);
      await file.close();
      const csv = join(dir, 'financials.csv');
      const lines = ['CERT,REPDTE,ASSET,DEP,ROA,ROE'];
      for (let i = 0; i < 60_000; i++)
        lines.push(`${100_000 + (i >> 1)},${i % 2 ? '20240331' : '20231231'},${1000 + i},${900 + i},1.1,9.5`);
      writeFileSync(csv, `${lines.join('\n')}\n`);
      const run = await startCli(['ingest', 'fdic-financials', '--from', csv], {
        DATABASE_URL: url,
        INGEST_SWAP_PAUSE_MS: '60000',
      });
      expect(await run.stderrContains('swap transaction open')).toBe(true);
      // The swap runs through a rollback journal: the journal is on disk, the rows in the file's cache or pages.
      expect(existsSync(`${url}-journal`)).toBe(true);
      run.child.kill('SIGKILL');
      expect((await run.done).signal).toBe('SIGKILL');
      const reopened = openDatabase(url);
      try {
        const sqlite = reopened.sqlite as Database.Database;
        expect(sqlite.pragma('integrity_check', { simple: true })).toBe('ok');
        expect(sqlite.pragma('journal_mode', { simple: true })).toBe('wal');
        expect(countIn(sqlite, 'financials')).toBe(0);
        expect(countIn(sqlite, 'sources')).toBe(0);
        expect(existsSync(`${url}-journal`)).toBe(false);
      } finally {
        await reopened.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
