/**
 * What the real-process reliability tests share: the built CLI (without touching dist/), spawning
 * its server on a database, and a copy of the small demo dataset. The build and the demo are made
 * once and reused until the sources change (test/helpers/build-cache.ts).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { closeSync, copyFileSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../../src/db/connect.js';
import { buildDemo, DEFAULT_DEMO_SEED } from '../../src/demo/index.js';
import { cached, REPO, sourceHash } from '../helpers/build-cache.js';
import { buildCli } from '../ingest/helpers/cli.js';

export { REPO };

/** The CLI built from the working tree (the one the ingestion tests run); returns its cli.js. */
export async function buildServer(): Promise<{ cli: string }> {
  return { cli: await buildCli() };
}

/** A private copy of the small demo dataset (SQLite). */
export async function demoCopy(): Promise<{ url: string; cleanup(): void }> {
  const built = await cached('demo', sourceHash(), async (path) => {
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
