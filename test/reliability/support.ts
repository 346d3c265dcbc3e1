/**
 * What the real-process reliability tests share: a build of the server (compiled into
 * node_modules/.cache like `npm run build`, without touching dist/), spawning it on a database,
 * and a copy of the small demo dataset. The build and the demo are each made once and reused by
 * every test file until the sources they come from change (a hash of those files names them).
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  closeSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { openDatabase } from '../../src/db/connect.js';
import { buildDemo, DEFAULT_DEMO_SEED } from '../../src/demo/index.js';

export const REPO = resolve(import.meta.dirname, '../..');
const CACHE = join(REPO, 'node_modules/.cache/regdata-reliability');

/** A hash of the files under `paths` (directories recursively), relative to the repository. */
function sourceHash(paths: readonly string[]): string {
  const hash = createHash('sha1');
  for (const path of paths) {
    const full = join(REPO, path);
    const files = statSync(full).isDirectory()
      ? readdirSync(full, { recursive: true, withFileTypes: true })
          .filter((f) => f.isFile())
          .map((f) => join(f.parentPath, f.name))
          .sort()
      : [full];
    for (const file of files) hash.update(file).update(readFileSync(file));
  }
  return hash.digest('hex').slice(0, 16);
}

/**
 * Makes `target` (a file or directory in CACHE) with `make(temporaryPath)` unless it exists, then
 * deletes older entries of the same `kind`. The rename is atomic, so test files running in parallel
 * never see half an entry; when two make it at once, the second discards its own.
 */
async function cached(kind: string, hash: string, make: (path: string) => Promise<void>): Promise<string> {
  mkdirSync(CACHE, { recursive: true });
  const name = `${kind}-${hash}`;
  const target = join(CACHE, name);
  if (existsSync(target)) return target;
  const building = `${target}.${process.pid}.tmp`;
  try {
    await make(building);
    renameSync(building, target);
  } catch (error) {
    if (!existsSync(target)) throw error;
  } finally {
    rmSync(building, { recursive: true, force: true });
  }
  const stale = new RegExp(`^${kind}-[0-9a-f]{16}$`);
  for (const entry of readdirSync(CACHE).filter((f) => stale.test(f) && f !== name)) {
    rmSync(join(CACHE, entry), { recursive: true, force: true });
  }
  return target;
}

/** The server compiled from the working tree's src/; returns the path of its cli.js. */
export async function buildServer(): Promise<{ cli: string }> {
  const inputs = ['src', 'package.json', 'tsconfig.json', 'tsconfig.build.json'];
  const root = await cached('build', sourceHash(inputs), async (dir) => {
    mkdirSync(dir, { recursive: true });
    copyFileSync(join(REPO, 'package.json'), join(dir, 'package.json')); // read by src/version.ts
    const tsc = join(REPO, 'node_modules/.bin/tsc');
    // Type errors elsewhere in a shared tree must not stop the emit; a broken emit fails below.
    await promisify(execFile)(tsc, ['-p', 'tsconfig.build.json', '--outDir', join(dir, 'dist')], {
      cwd: REPO,
    }).catch(() => undefined);
    if (!existsSync(join(dir, 'dist/cli.js'))) throw new Error(`build produced no ${dir}/dist/cli.js`);
  });
  return { cli: join(root, 'dist/cli.js') };
}

/** A private copy of the small demo dataset (SQLite). */
export async function demoCopy(): Promise<{ url: string; cleanup(): void }> {
  const built = await cached('demo', sourceHash(['src/demo', 'src/db/migrations']), async (path) => {
    const handle = openDatabase(path);
    await buildDemo(handle, { seed: DEFAULT_DEMO_SEED, scale: 'small' });
    handle.sqlite?.pragma('wal_checkpoint(TRUNCATE)');
    handle.sqlite?.pragma('journal_mode = DELETE');
    await handle.close();
  });
  const dir = mkdtempSync(join(tmpdir(), 'regdata-reliability-'));
  const url = join(dir, 'demo.sqlite');
  copyFileSync(built, url);
  const writer = openDatabase(url); // back to WAL, as a real deployment runs
  await writer.close();
  return { url, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

export interface RunningServer {
  readonly child: ChildProcess;
  readonly origin: string;
  readonly exited: Promise<number | null>;
  /** Everything the server wrote to stdout and stderr, read once it has exited. */
  readonly finalLog: Promise<string>;
  stop(): Promise<void>;
}

/**
 * Spawns `node [nodeArgs] cli.js serve` on port 0 and resolves once it listens. Its output goes to
 * a file, as a log collector would take it: a test process busy driving load reads a pipe slowly,
 * and pino holds what a slow reader has not taken yet in the server's heap, which the load test
 * would then count as the server's own memory.
 */
export async function spawnServer(
  cli: string,
  env: Record<string, string>,
  nodeArgs: readonly string[] = [],
  options: { ipc?: boolean } = {},
): Promise<RunningServer> {
  const logDir = mkdtempSync(join(tmpdir(), 'regdata-server-log-'));
  const logPath = join(logDir, 'server.log');
  const log = openSync(logPath, 'a');
  const child = spawn(process.execPath, [...nodeArgs, cli, 'serve', '--no-migrate'], {
    env: { ...process.env, HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'info', ...env },
    stdio: options.ipc ? ['ignore', log, log, 'ipc'] : ['ignore', log, log],
  });
  closeSync(log);
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  const origin = await new Promise<string>((done, fail) => {
    const poll = setInterval(() => {
      const match = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(readFileSync(logPath, 'utf8'));
      if (match) {
        clearInterval(poll);
        done(match[1] as string);
      }
    }, 25);
    exited.then((code) => {
      clearInterval(poll);
      fail(
        new Error(`server exited (${code}) before listening:\n${readFileSync(logPath, 'utf8').slice(-2000)}`),
      );
    });
  });
  const finalLog = exited.then(() => {
    const text = readFileSync(logPath, 'utf8');
    rmSync(logDir, { recursive: true, force: true });
    return text;
  });
  return {
    child,
    origin,
    exited,
    finalLog,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

/** One sample of a /metrics gauge from a running server. */
export async function metricValue(origin: string, name: string): Promise<number> {
  const text = await (await fetch(`${origin}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith(`${name} `));
  if (!line) throw new Error(`no ${name} in /metrics`);
  return Number(line.split(' ')[1]);
}
