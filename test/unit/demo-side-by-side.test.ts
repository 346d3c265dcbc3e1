/**
 * The demo built side by side (src/demo/side-by-side.ts: the banking half in a worker thread, copied
 * in) gives exactly the tables of a build of one half after the other, versions and provenance
 * included; a build killed midway leaves an empty database, and the next build removes what the
 * killed one left. The worker only exists compiled, so the builds run the built CLI's modules in a
 * child process; the reference is the in-process build (TypeScript sources: one half after the other).
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { threadId } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_DEMO_SEED } from '../../src/demo/index.js';
import { removeAbandonedScratch } from '../../src/demo/scratch.js';
import { differingTables } from '../helpers/same-tables.js';
import { buildCli } from '../ingest/helpers/cli.js';
import { demoCopy } from '../reliability/support.js';

/** Every build started, killed when the file's tests end (a failed or timed-out test leaves none running). */
const children: ChildProcess[] = [];

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
  children.push(child);
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const done = new Promise<{ code: number | null; output: string }>((resolve) =>
    child.on('close', (code) => resolve({ code, output })),
  );
  return { child, done };
}

const scratchFiles = (path: string) =>
  readdirSync(dirname(path)).filter((name) => name.startsWith(`${basename(path)}.demo-banking-`));

describe('the demo built side by side (SQLite)', () => {
  let built: string;
  let reference: Awaited<ReturnType<typeof demoCopy>>;
  const dirs: string[] = [];
  const freshDir = () => {
    dirs.push(mkdtempSync(join(tmpdir(), 'regdata-side-by-side-')));
    return dirs.at(-1) as string;
  };

  beforeAll(async () => {
    built = dirname(await buildCli());
    reference = await demoCopy();
  }, 300_000);
  afterAll(() => {
    for (const child of children) child.kill('SIGKILL');
    reference?.cleanup();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  // One test, not two: each small build takes ~40 s on a 2-core machine, and the build after a killed
  // one is the case that matters (a first build is the same code with nothing to remove).
  it('killed midway leaves an empty database; the next build removes the scratch file and gives the tables of a build one half after the other, in WAL mode', {
    timeout: 300_000,
  }, async () => {
    const dir = freshDir();
    const path = join(dir, 'demo.sqlite');
    const killed = startBuild(built, path);
    try {
      // Its transaction has begun (the rollback journal exists) and the worker has its file: the
      // small build takes ~20 s from there, the main thread's half ~3 s of it. Kill it 2 s in.
      while (!(existsSync(`${path}-journal`) && scratchFiles(path).length > 0)) {
        if (killed.child.exitCode !== null)
          throw new Error(`the build ended first: ${(await killed.done).output}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      await new Promise((resolve) => setTimeout(resolve, 2000));
      expect(killed.child.exitCode).toBeNull();
    } finally {
      killed.child.kill('SIGKILL');
    }
    await killed.done;
    expect(killed.child.signalCode).toBe('SIGKILL');
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
    expect(output).toMatch(/demo: banking half copied in \d+ ms/);
    expect(output).toMatch(/demo: both halves built in \d+ ms/);
    expect(scratchFiles(path)).toEqual([]);
    expect(differingTables(reference.url, path)).toEqual([]);
    const rebuilt = new Database(path, { readonly: true });
    try {
      expect(rebuilt.pragma('journal_mode', { simple: true })).toBe('wal');
      expect((rebuilt.prepare('select count(*) as n from sources').get() as { n: number }).n).toBe(8);
    } finally {
      rebuilt.close();
    }
  });
});

describe('abandoned scratch files', () => {
  it('are removed when their process is gone or has this thread’s own name, kept while in use', () => {
    const dir = mkdtempSync(join(tmpdir(), 'regdata-scratch-'));
    try {
      const database = join(dir, 'demo.sqlite');
      const gone = spawnSync(process.execPath, ['-e', '']).pid as number;
      const name = (pid: number, thread: number, suffix = '') =>
        `demo.sqlite.demo-banking-${pid}-${thread}${suffix}`;
      const files = {
        // A killed build of an earlier process that had this pid (pid 1 in a container, say).
        ownName: name(process.pid, threadId),
        otherThread: name(process.pid, threadId + 1),
        running: name(process.ppid, 0),
        gone: name(gone, 0),
        goneWal: name(gone, 0, '-wal'),
      };
      for (const file of [...Object.values(files), 'demo.sqlite', 'other.sqlite.demo-banking-1-0'])
        writeFileSync(join(dir, file), '');
      removeAbandonedScratch(database);
      expect(readdirSync(dir).sort()).toEqual(
        ['demo.sqlite', files.otherThread, files.running, 'other.sqlite.demo-banking-1-0'].sort(),
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
