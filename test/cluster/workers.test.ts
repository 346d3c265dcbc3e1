/**
 * `regdata serve --workers 2` through the built CLI: two worker processes share one port, a worker
 * that dies is replaced, and SIGTERM on the primary drains the workers and exits 0.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordSource } from '../../src/db/dataset.js';
import { seedFailures } from '../fixtures/failures.js';
import { type TestDatabase, testBackends } from '../helpers/backends.js';
import { buildServer } from '../reliability/support.js';

const root = resolve(import.meta.dirname, '../..');

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const address = server.address();
  await new Promise((done) => server.close(done));
  return typeof address === 'object' && address ? address.port : 0;
}

/** Child processes of `pid`, from /proc. */
function childrenOf(pid: number): number[] {
  const text = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim();
  return text ? text.split(/\s+/).map(Number) : [];
}

async function until<T>(probe: () => Promise<T | undefined> | T | undefined, what: string): Promise<T> {
  const deadline = Date.now() + 120_000; // a loaded 2-core machine needs ~30 s to start 2 workers
  for (;;) {
    const value = await Promise.resolve(probe()).catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((done) => setTimeout(done, 100));
  }
}

describe('regdata serve --workers 2 (built CLI)', { timeout: 150_000 }, () => {
  let database: TestDatabase;
  let primary: ChildProcess;
  let base: string;
  let exited: Promise<number | null>;
  let build: { cli: string };

  beforeAll(async () => {
    // The built CLI (a build of the working tree, shared with the reliability suite).
    build = await buildServer();
    const sqlite = testBackends().find((backend) => backend.name === 'sqlite');
    if (!sqlite) throw new Error('the SQLite backend is always available');
    database = await sqlite.create();
    await seedFailures(database.writer);
    await recordSource(database.writer.db, {
      source: 'fdic-failures',
      upstream: 'test fixture',
      loaded_at: new Date().toISOString(),
      rows: 8,
      duration_ms: 1,
      checksum: null,
      is_demo: 0,
      notes: null,
    });
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    primary = spawn(process.execPath, [build.cli, 'serve', '--workers', '2', '--port', String(port)], {
      cwd: root,
      env: { ...process.env, DATABASE_URL: database.url, HOST: '127.0.0.1', LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    exited = new Promise((done) => primary.once('exit', (code) => done(code)));
    await until(async () => ((await fetch(`${base}/readyz`)).ok ? true : undefined), 'the cluster to answer');
  }, 300_000);

  afterAll(async () => {
    if (primary && primary.exitCode === null) primary.kill('SIGKILL');
    await database?.drop();
  });

  it('runs two workers that answer on the shared port', async () => {
    expect(
      await until(() => (childrenOf(primary.pid ?? 0).length === 2 ? true : undefined), '2 workers'),
    ).toBe(true);
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, i) => fetch(`${base}/api/v1/failures?limit=${i + 1}`)),
    );
    expect(responses.map((r) => r.status)).toEqual(responses.map(() => 200));
  });

  it('replaces a worker that dies, and keeps answering meanwhile', async () => {
    const [victim, survivor] = childrenOf(primary.pid ?? 0);
    process.kill(victim ?? 0, 'SIGKILL');
    // The survivor answers at once (a keep-alive socket to the dead worker may fail once: retry).
    const answered = await until(
      async () => ((await fetch(`${base}/healthz`)).ok ? Date.now() : undefined),
      'the survivor',
    );
    expect(answered).toBeGreaterThan(0);
    const replaced = await until(() => {
      const now = childrenOf(primary.pid ?? 0);
      return now.length === 2 && !now.includes(victim ?? 0) ? now : undefined;
    }, 'a replacement worker');
    expect(replaced).toContain(survivor);
    await until(
      async () => ((await fetch(`${base}/readyz`)).ok ? true : undefined),
      'the replacement to serve',
    );
  });

  it('drains the workers and exits 0 on SIGTERM', async () => {
    const workers = childrenOf(primary.pid ?? 0);
    primary.kill('SIGTERM');
    expect(await exited).toBe(0);
    for (const pid of workers) expect(existsSync(`/proc/${pid}`)).toBe(false);
  });
});
