/**
 * The CLI keeps V8's compiled code on disk (src/cli.ts, `module.enableCompileCache()`): the first
 * run of a build writes an entry per module it loads under $TMPDIR/node-compile-cache, later runs
 * reuse them, and NODE_DISABLE_COMPILE_CACHE=1 turns it off. `serve` writes it as soon as it
 * listens, so a server that is killed still leaves it.
 */
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buildCli, runCli } from '../ingest/helpers/cli.js';
import { spawnServer } from '../reliability/support.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function freshDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'regdata-compile-cache-'));
  dirs.push(dir);
  return dir;
}

/** Runs `regdata ingest --help` with TMPDIR in a fresh directory; returns that directory. */
async function runWithTmpdir(env: Record<string, string> = {}): Promise<string> {
  const dir = freshDir();
  const run = await runCli(['ingest', '--help'], { TMPDIR: dir, ...env });
  expect(run.code, run.stderr).toBe(0);
  expect(run.stdout).toContain('Usage: regdata ingest');
  return dir;
}

/** Cache entries written under `dir` (one file per compiled module, in per-version folders). */
function entries(dir: string): number {
  const root = join(dir, 'node-compile-cache');
  if (!existsSync(root)) return 0;
  return readdirSync(root, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile()).length;
}

describe('the CLI’s compile cache', () => {
  it('writes an entry for each module a run compiles', { timeout: 60_000 }, async () => {
    // `ingest --help` loads the commands and Kysely: several hundred modules.
    expect(entries(await runWithTmpdir())).toBeGreaterThan(300);
  });

  it('writes nothing with NODE_DISABLE_COMPILE_CACHE=1', { timeout: 60_000 }, async () => {
    expect(entries(await runWithTmpdir({ NODE_DISABLE_COMPILE_CACHE: '1' }))).toBe(0);
  });

  it('is written by serve once it listens, before the process ends', { timeout: 60_000 }, async () => {
    const database = join(freshDir(), 'empty.sqlite');
    const migrated = await runCli(['migrate'], { DATABASE_URL: database });
    expect(migrated.code, migrated.stderr).toBe(0);
    const dir = freshDir();
    // spawnServer passes this process's environment on: the cache's directory is named outright.
    const server = await spawnServer(await buildCli(), {
      DATABASE_URL: database,
      NODE_COMPILE_CACHE: join(dir, 'node-compile-cache'),
    });
    try {
      expect((await fetch(`${server.origin}/healthz`)).status).toBe(200);
      // Fastify and the routes on top of the commands: more than `ingest --help` writes.
      await expect.poll(() => entries(dir), { timeout: 10_000 }).toBeGreaterThan(500);
    } finally {
      server.child.kill('SIGKILL'); // no exit handler runs: what is on disk was flushed before
      await server.exited;
    }
  });
});
