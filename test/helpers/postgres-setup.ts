/**
 * Vitest global setup: probes TEST_DATABASE_URL once per run and tells the test files (through
 * `inject('postgres')`) whether the PostgreSQL half of the suite runs. Prints a visible line when
 * it is skipped; with REQUIRE_POSTGRES=1 (as `.ci/run` sets) a missing or unreachable server fails
 * the run instead.
 */
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import type { PostgresProbe } from './backends.js';

declare module 'vitest' {
  export interface ProvidedContext {
    postgres: PostgresProbe;
  }
}

async function probe(url: string | undefined): Promise<PostgresProbe> {
  if (!url) return { url: null, skipReason: 'TEST_DATABASE_URL is not set' };
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query('select 1');
    return { url, skipReason: null };
  } catch (error) {
    const redacted = url.replace(/\/\/[^@/]*@/, '//…@');
    return { url, skipReason: `cannot connect to ${redacted}: ${(error as Error).message}` };
  } finally {
    await client.end().catch(() => {});
  }
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Drops test databases (`regdata_t_<pid>_<random>`) left behind by killed runs: only on a local
 * server, and only those whose creating process is gone, so concurrent runs are never touched.
 */
async function dropOrphans(url: string): Promise<void> {
  if (!['127.0.0.1', 'localhost', '[::1]'].includes(new URL(url).hostname)) return;
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ datname: string }>(
      "select datname from pg_database where datname ~ '^regdata_t_[0-9]+_[0-9a-f]+$'",
    );
    for (const { datname } of rows) {
      const pid = Number(datname.split('_')[2]);
      if (!processAlive(pid)) await client.query(`drop database if exists ${datname} with (force)`);
    }
  } finally {
    await client.end();
  }
}

export default async function setup(project: TestProject): Promise<void> {
  const result = await probe(process.env.TEST_DATABASE_URL);
  if (result.url && !result.skipReason) await dropOrphans(result.url).catch(() => {});
  if (result.skipReason) {
    if (process.env.REQUIRE_POSTGRES === '1') {
      throw new Error(`REQUIRE_POSTGRES=1 but PostgreSQL is unavailable: ${result.skipReason}`);
    }
    console.warn(
      `\n⚠ PostgreSQL backend skipped: ${result.skipReason}. Only the SQLite half of the suite runs;` +
        (result.url
          ? ' start PostgreSQL or correct TEST_DATABASE_URL to run both.\n'
          : ' set TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test to run both.\n'),
    );
  }
  project.provide('postgres', result);
}
