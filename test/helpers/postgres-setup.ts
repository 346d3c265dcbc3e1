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

export default async function setup(project: TestProject): Promise<void> {
  const result = await probe(process.env.TEST_DATABASE_URL);
  if (result.skipReason) {
    if (process.env.REQUIRE_POSTGRES === '1') {
      throw new Error(`REQUIRE_POSTGRES=1 but PostgreSQL is unavailable: ${result.skipReason}`);
    }
    console.warn(
      `\n⚠ PostgreSQL backend skipped: ${result.skipReason}. Only the SQLite half of the suite runs;` +
        ' set TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test to run both.\n',
    );
  }
  project.provide('postgres', result);
}
