/**
 * Runs the real CLI (`src/cli.ts`) as a child process, the way an operator runs `regdata`. The
 * sources are transpiled with esbuild (a vitest dependency) into the tests' build cache
 * (test/helpers/build-cache.ts: once, until they change), so bare imports resolve and no shared
 * `dist/` is touched; then plain `node` runs them. Every invocation gets an explicit environment (no
 * FRED/FDIC keys leak in from the shell).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { copyFileSync, cpSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import { cached, REPO, sourceHash } from '../../helpers/build-cache.js';

export const REPO_ROOT = REPO;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

let built: Promise<string> | null = null;

/** The transpiled CLI; returns the path of its cli.js. */
export function buildCli(): Promise<string> {
  built ??= cached('cli', sourceHash(), async (root) => {
    const outdir = join(root, 'dist');
    mkdirSync(outdir, { recursive: true });
    // version.ts reads ../package.json relative to itself, as in the published package.
    copyFileSync(join(REPO_ROOT, 'package.json'), join(root, 'package.json'));
    // The identity graph's checked-in overrides (config/entity-overrides.json), found the same way.
    cpSync(join(REPO_ROOT, 'config'), join(root, 'config'), { recursive: true });
    await build({
      entryPoints: sourceFiles(join(REPO_ROOT, 'src')),
      outdir,
      outbase: join(REPO_ROOT, 'src'),
      format: 'esm',
      platform: 'node',
      target: 'node22',
      bundle: false,
      logLevel: 'silent',
    });
  }).then((root) => join(root, 'dist', 'cli.js'));
  return built;
}

export interface CliResult {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

export const BASE_ENV: Record<string, string> = {
  PATH: process.env.PATH ?? '',
  LOG_LEVEL: 'silent',
  INGEST_RETRY_BASE_MS: '10',
  INGEST_REQUEST_INTERVAL_MS: '0',
  INGEST_TIMEOUT_MS: '5000',
};

export interface CliRun {
  readonly child: ChildProcess;
  readonly done: Promise<CliResult>;
  /** Resolves once stderr contains `text` (false if the process ended first). */
  stderrContains(text: string): Promise<boolean>;
}

/** Starts `regdata <args>` with `env` added to BASE_ENV. */
export async function startCli(args: readonly string[], env: Record<string, string>): Promise<CliRun> {
  const cli = await buildCli();
  const child = spawn(process.execPath, [cli, ...args], {
    cwd: REPO_ROOT,
    env: { ...BASE_ENV, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const done = new Promise<CliResult>((resolveDone) => {
    child.on('close', (code, signal) => resolveDone({ code, signal, stdout, stderr }));
  });
  const stderrContains = async (text: string) => {
    let ended = false;
    void done.then(() => {
      ended = true;
    });
    while (!stderr.includes(text)) {
      if (ended) return false;
      await new Promise((resolveWait) => setTimeout(resolveWait, 20));
    }
    return true;
  };
  return { child, done, stderrContains };
}

export async function runCli(args: readonly string[], env: Record<string, string>): Promise<CliResult> {
  return (await startCli(args, env)).done;
}

/** `regdata ingest … --json` and its parsed summary (throws with the output when it is not JSON). */
export async function ingestJson(args: readonly string[], env: Record<string, string>) {
  const result = await runCli(['ingest', ...args, '--json', '--progress', 'none'], env);
  try {
    return { ...result, summary: JSON.parse(result.stdout) };
  } catch {
    throw new Error(`not JSON (exit ${result.code}):\n${result.stdout}\n${result.stderr}`);
  }
}
