/**
 * Every command but `serve` starts without the server (Fastify), the API's parameter schemas
 * (TypeBox, ~250 modules) and the Parquet writer (DuckDB): module loading a `regdata ingest` no
 * longer pays (src/cli.ts; `ingest --help` 0.33 → 0.21 s with this and the compile cache). A
 * module-resolution hook in the CLI process reports every package it imports; `serve --help` is the
 * control that the hook sees Fastify when it is loaded.
 */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { BASE_ENV, buildCli, REPO_ROOT } from '../ingest/helpers/cli.js';

const WATCHED = /^(fastify|@duckdb\/node-api|typebox)(\/|$)/;

/**
 * Registers a resolve hook that prints `imports <package>` for every watched bare specifier. Hooks
 * run on their own thread: the write is synchronous so that `--help`, which exits at once, keeps it.
 */
const HOOK = `import { writeSync } from 'node:fs';
export async function resolve(specifier, context, next) {
  if (${WATCHED}.test(specifier)) writeSync(2, 'imports ' + specifier + '\\n');
  return next(specifier, context);
}`;
const REGISTER = `import { register } from 'node:module';
register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(HOOK)}`)});`;

async function packagesImportedBy(args: readonly string[]): Promise<string[]> {
  const cli = await buildCli();
  const run = spawnSync(
    process.execPath,
    ['--import', `data:text/javascript,${encodeURIComponent(REGISTER)}`, cli, ...args],
    { cwd: REPO_ROOT, env: BASE_ENV, encoding: 'utf8' },
  );
  expect(run.status, run.stderr).toBe(0);
  return [...run.stderr.matchAll(/^imports (\S+)$/gm)].map((match) => match[1] as string).sort();
}

describe('what the CLI loads', () => {
  it('loads neither Fastify, TypeBox nor DuckDB for the commands other than serve', {
    timeout: 60_000,
  }, async () => {
    for (const args of [['--help'], ['ingest', '--help'], ['export', '--help']])
      expect(await packagesImportedBy(args), args.join(' ')).toEqual([]);
  });

  it('loads Fastify for serve (the hook sees it when it is loaded)', { timeout: 60_000 }, async () => {
    expect(await packagesImportedBy(['serve', '--help'])).toContain('fastify');
  });
});
