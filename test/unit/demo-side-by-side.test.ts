/**
 * The demo built side by side (src/demo/side-by-side.ts: the banking half in a worker thread, copied
 * in) gives exactly the tables of a build of one half after the other, versions and provenance
 * included; a build killed midway leaves an empty database, and the next build removes what the
 * killed one left. The worker only exists compiled, so the builds run the built CLI's modules in a
 * child process; the reference is the in-process build (TypeScript sources: one half after the other).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_DEMO_SEED } from '../../src/demo/index.js';
import { differingTables } from '../helpers/same-tables.js';
import { buildCli } from '../ingest/helpers/cli.js';
import { demoCopy } from '../reliability/support.js';

/** Starts a side-by-side build of the small demo into `path` with the built modules. */
function startBuild(
  built: string,
  path: string,
): { child: ChildProcess; done: Promise<{ code: number | null; output: string }> } {
  const module = (name: string) => JSON.stringify(pathToFileURL(join(built, name)).href);
  const script = `
    const { openDatabase } = await import(${module('db/connect.js')});
    const { buildDemo } = await import(${module('demo/index.js')});
    const handle = openDatabase(${JSON.stringify(path)});
    await buildDemo(handle, { seed: ${DEFAULT_DEMO_SEED}, scale: 'small', sideBySide: true, log: console.log });
    await handle.close();`;
  // A file, not `-e`: worker threads inherit the command line's flags, `--input-type` included.
  const file = join(dirname(path), `build-${Date.now()}.mjs`);
  writeFileSync(file, script);
  const child = spawn(process.execPath, [file], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const done = new Promise<{ code: number | null; output: string }>((resolve) =>
    child.on('close', (code) => resolve({ code, output })),
  );
  return { child, done };
}

const scratchFiles = (path: string) =>
  readdirSync(dirname(path)).filter((name) => name.startsWith('demo.sqlite.demo-banking-'));

describe('the demo built side by side (SQLite)', () => {
  let built: string;
  let reference: Awaited<ReturnType<typeof demoCopy>>;
  let dir: string;

  beforeAll(async () => {
    built = dirname(await buildCli());
    reference = await demoCopy();
    dir = mkdtempSync(join(tmpdir(), 'regdata-side-by-side-'));
  }, 300_000);
  afterAll(() => {
    reference?.cleanup();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('gives the tables of a build one half after the other, in WAL mode, with no scratch file left', {
    timeout: 300_000,
  }, async () => {
    const path = join(dir, 'demo.sqlite');
    const { code, output } = await startBuild(built, path).done;
    expect(code, output).toBe(0);
    expect(output).toMatch(/demo: banking half copied in \d+ ms/);
    expect(output).toMatch(/demo: both halves built in \d+ ms/);
    expect(differingTables(reference.url, path)).toEqual([]);
    const db = new Database(path, { readonly: true });
    try {
      expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
      expect((db.prepare('select count(*) as n from sources').get() as { n: number }).n).toBe(8);
    } finally {
      db.close();
    }
    expect(scratchFiles(path)).toEqual([]);
    rmSync(path, { force: true });
  });

  it('killed midway: the database is left empty, and the next build removes the scratch file', {
    timeout: 300_000,
  }, async () => {
    const path = join(dir, 'demo.sqlite');
    const killed = startBuild(built, path);
    // Wait until the worker has written a good part of its banking half, then kill the process.
    for (;;) {
      // The worker writes through the WAL: its file grows only at the checkpoint, the WAL at once.
      const written = scratchFiles(path).reduce((sum, name) => sum + statSync(join(dir, name)).size, 0);
      if (written > 50_000_000) break;
      if (killed.child.exitCode !== null)
        throw new Error(`the build ended first: ${(await killed.done).output}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    killed.child.kill('SIGKILL');
    await killed.done;
    expect(scratchFiles(path).length).toBeGreaterThan(0);
    expect(existsSync(`${path}-journal`)).toBe(true);

    // Opening it rolls the hot journal back: nothing of the killed build is left.
    const db = new Database(path);
    try {
      for (const table of ['sources', 'institutions', 'financials', 'filings_13f', 'loads'])
        expect((db.prepare(`select count(*) as n from ${table}`).get() as { n: number }).n, table).toBe(0);
    } finally {
      db.close();
    }

    const { code, output } = await startBuild(built, path).done;
    expect(code, output).toBe(0);
    expect(output).toMatch(/demo: both halves built in \d+ ms/);
    expect(scratchFiles(path)).toEqual([]);
    const rebuilt = new Database(path, { readonly: true });
    try {
      expect((rebuilt.prepare('select count(*) as n from sources').get() as { n: number }).n).toBe(8);
    } finally {
      rebuilt.close();
    }
  });
});
