/** Processes of the HTTP benchmark: the built server, the ceiling server, the load generator. */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { closeSync, mkdirSync, openSync, readFileSync, rmSync } from 'node:fs';
import { type AddressInfo, createServer } from 'node:net';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';

export const ROOT = resolve(import.meta.dirname, '..');
const CLI = join(ROOT, 'dist/cli.js');
/** Where the servers' logs go while they run. */
const LOGS = join(ROOT, 'bench/.out');
/** /proc/<pid>/stat counts CPU time in clock ticks (USER_HZ: 100 on Linux). */
const CLOCK_TICKS = 100;

export interface Proc {
  readonly child: ChildProcess;
  readonly origin: string;
  /** Peak resident set size so far (VmHWM), bytes; null where /proc is unavailable. */
  peakRss(): number | null;
  /** CPU time used so far (user + system), seconds; null where /proc is unavailable. */
  cpuSeconds(): number | null;
  stop(): Promise<void>;
}

function waitForLine(child: ChildProcess, pattern: RegExp): Promise<string> {
  let output = '';
  return new Promise((done, fail) => {
    const onData = (chunk: Buffer) => {
      output += chunk;
      const match = pattern.exec(output);
      if (match) done(match[1] as string);
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', (chunk: Buffer) => {
      output += chunk;
    });
    child.once('exit', (code) =>
      fail(new Error(`exited (${code}) before listening:\n${output.slice(-2000)}`)),
    );
  });
}

function proc(child: ChildProcess, origin: string): Proc {
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  return {
    child,
    origin,
    peakRss() {
      try {
        const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
        const kb = /VmHWM:\s+(\d+) kB/.exec(status)?.[1];
        return kb ? Number(kb) * 1024 : null;
      } catch {
        return null;
      }
    },
    cpuSeconds() {
      try {
        // Fields after the parenthesised command name: utime and stime are the 12th and 13th.
        const stat = readFileSync(`/proc/${child.pid}/stat`, 'utf8');
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
      } catch {
        return null;
      }
    },
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

/** A port that was free a moment ago (the server's own port 0 would have to be read from its log). */
function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const probe = createServer();
    probe.once('error', fail);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => done(port));
    });
  });
}

async function waitUntilReady(origin: string, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    const ok = await fetch(`${origin}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((done) => setTimeout(done, 200));
  }
  throw new Error('server did not answer /healthz within 120 s');
}

/**
 * `node dist/cli.js serve` on a database with the default settings (`cache: false` adds
 * `--no-cache`). Its access log goes to a file, as to a log collector (removed once it stops): on
 * the terminal it would bury the report, and a pipe would measure its reader.
 */
export async function startServer(databaseUrl: string, cache: boolean): Promise<Proc> {
  const port = await freePort();
  const args = [CLI, 'serve', '--no-migrate', ...(cache ? [] : ['--no-cache'])];
  mkdirSync(LOGS, { recursive: true });
  const logPath = join(LOGS, `server-${port}.log`);
  const log = openSync(logPath, 'w');
  const child = spawn(process.execPath, args, {
    env: { ...process.env, DATABASE_URL: databaseUrl, HOST: '127.0.0.1', PORT: String(port) },
    stdio: ['ignore', log, 'inherit'],
  });
  closeSync(log);
  child.once('exit', () => rmSync(logPath, { force: true }));
  const origin = `http://127.0.0.1:${port}`;
  await waitUntilReady(origin, child);
  return proc(child, origin);
}

/** bench/ceiling.mjs, answering the files of `bodiesDir` as constant bodies. */
export function startCeiling(bodiesDir: string): Promise<Proc> {
  return startBare('ceiling.mjs', bodiesDir);
}

/** bench/floor.mjs, building and serialising the bodies of `bodiesDir` anew per request. */
export function startFloor(bodiesDir: string): Promise<Proc> {
  return startBare('floor.mjs', bodiesDir);
}

async function startBare(script: string, bodiesDir: string): Promise<Proc> {
  const child = spawn(process.execPath, [join(ROOT, 'bench', script), bodiesDir], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const port = await waitForLine(child, /"port":(\d+)/);
  return proc(child, `http://127.0.0.1:${port}`);
}

export interface LoadResult {
  rps: number;
  total: number;
  p50: number;
  p99: number;
  max: number;
  errors: number;
  timeouts: number;
  non2xx: number;
  statuses: Record<string, number>;
  /** CPU the server spent per request answered, µs (see measuredLoad); absent when not measured. */
  serverUs?: number | null;
}

/** Runs bench/load-generator.mjs in its own process. */
export async function generateLoad(
  origin: string,
  paths: readonly string[],
  connections: number,
  seconds: number,
): Promise<LoadResult> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [join(ROOT, 'bench/load-generator.mjs'), JSON.stringify({ origin, paths, connections, seconds })],
    { maxBuffer: 16 * 1024 * 1024 },
  );
  return JSON.parse(stdout.trim().split('\n').at(-1) as string) as LoadResult;
}

/**
 * generateLoad against `server`, also measuring the CPU it spent per request answered: on a shared
 * machine the throughput of a run depends on what else runs at that moment, its CPU per request
 * much less.
 */
export async function measuredLoad(
  server: Proc,
  paths: readonly string[],
  connections: number,
  seconds: number,
): Promise<LoadResult> {
  const before = server.cpuSeconds();
  const result = await generateLoad(server.origin, paths, connections, seconds);
  const after = server.cpuSeconds();
  const spent = before === null || after === null ? null : after - before;
  return { ...result, serverUs: spent === null || result.total === 0 ? null : (spent * 1e6) / result.total };
}

/** Builds a demo dataset with the built CLI. */
export async function buildDemoDataset(databaseUrl: string, scale: 'small' | 'full'): Promise<void> {
  await new Promise<void>((done, fail) => {
    const child = spawn(process.execPath, [CLI, 'demo', '--scale', scale], {
      env: { ...process.env, DATABASE_URL: databaseUrl },
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    child.once('exit', (code) => (code === 0 ? done() : fail(new Error(`regdata demo exited with ${code}`))));
  });
}
