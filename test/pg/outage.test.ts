/**
 * The database goes away under a running API (PostgreSQL only): the API's connections are killed
 * (`pg_terminate_backend`) and new ones refused (`ALLOW_CONNECTIONS false`) on the test's own
 * database, during a stream of real HTTP requests. The API must answer 503 problem documents while
 * the database is away and recover by itself once it is back. Also: statement timeouts and a server
 * that refuses connections are 503s, not 500s.
 */
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { configWith } from '../../src/config.js';
import { type DbHandle, openDatabase } from '../../src/db/connect.js';
import { recordSource } from '../../src/db/dataset.js';
import { seedFailures } from '../fixtures/failures.js';
import {
  adminQuery,
  postgresBackendOrNull,
  postgresProbe,
  TEST_READER_ROLE,
  type TestDatabase,
} from '../helpers/backends.js';

const backend = postgresBackendOrNull();
const adminUrl = postgresProbe().url ?? '';

interface Answer {
  status: number;
  type: string | null;
  cacheControl: string | null;
}

async function fetchAnswer(base: string, path: string): Promise<Answer> {
  const response = await fetch(`${base}${path}`);
  const body = (await response.json()) as { type?: string };
  return {
    status: response.status,
    type: response.status === 200 ? null : (body.type ?? null),
    cacheControl: response.headers.get('cache-control'),
  };
}

describe.skipIf(!backend)('PostgreSQL outage under a running API (real HTTP)', () => {
  let database: TestDatabase;
  let reader: DbHandle;
  let app: FastifyInstance;
  let base: string;
  let databaseName: string;

  beforeAll(async () => {
    database = await (backend as NonNullable<typeof backend>).create();
    await seedFailures(database.writer);
    // Something loaded, so /readyz (part of the stream) is 200 while the database is there.
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
    databaseName = new URL(database.url).pathname.slice(1);
    reader = openDatabase(database.readerUrl, { readonly: true, poolSize: 3, statementTimeoutMs: 200 });
    app = await buildApp(configWith({ logLevel: 'silent' }), { handle: reader });
    // A deliberately slow query, to hit the statement timeout through the real error handler.
    app.get('/test/slow', { schema: { hide: true } }, async () => {
      await sql`select pg_sleep(2)`.execute(app.db);
      return { slept: true };
    });
    base = await app.listen({ port: 0, host: '127.0.0.1' });
  });

  afterAll(async () => {
    await adminQuery(adminUrl, `alter database ${databaseName} allow_connections true`).catch(() => {});
    await app?.close();
    await reader?.close();
    await database?.drop();
  });

  async function takeDatabaseAway(): Promise<void> {
    await adminQuery(adminUrl, `alter database ${databaseName} allow_connections false`);
    await adminQuery(
      adminUrl,
      `select pg_terminate_backend(pid) from pg_stat_activity where datname = '${databaseName}' and usename = '${TEST_READER_ROLE}'`,
    );
  }

  it('answers 503 problem documents while the database is away and recovers by itself', async () => {
    const answers: { phase: string; answer: Answer }[] = [];
    let phase = 'before';
    let running = true;
    let n = 0;
    // A steady stream of requests; a different `limit` each time so no response cache can answer.
    const stream = (async () => {
      while (running) {
        n += 1;
        const path = n % 5 === 0 ? '/readyz' : `/api/v1/failures?limit=${1 + (n % 400)}`;
        const startedIn = phase; // a request in flight when the phase changes belongs to the old one
        answers.push({ phase: startedIn, answer: await fetchAnswer(base, path) });
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    })();
    const waitFor = async (predicate: () => boolean, what: string) => {
      const deadline = Date.now() + 15_000;
      while (!predicate()) {
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    };
    const count = (p: string, status: number) =>
      answers.filter((a) => a.phase === p && a.answer.status === status).length;

    await waitFor(() => count('before', 200) >= 10, '10 answers before the outage');
    phase = 'away';
    await takeDatabaseAway();
    await waitFor(() => count('away', 503) >= 10, '10 answers while the database is away');
    await adminQuery(adminUrl, `alter database ${databaseName} allow_connections true`);
    phase = 'back';
    await waitFor(() => count('back', 200) >= 10, '10 answers after the database is back');
    running = false;
    await stream;

    const statuses = new Set(answers.map((a) => a.answer.status));
    expect([...statuses].sort()).toEqual([200, 503]);
    expect(answers.filter((a) => a.phase === 'before').every((a) => a.answer.status === 200)).toBe(true);
    for (const { answer } of answers.filter((a) => a.answer.status === 503)) {
      expect(answer.type).toBe('/problems/data-unavailable');
      expect(answer.cacheControl).toBe('no-store');
    }
    // Once a request succeeds after the outage, every later one does too: the pool healed.
    const back = answers.filter((a) => a.phase === 'back').map((a) => a.answer.status);
    expect(back.slice(back.indexOf(200))).toEqual(back.slice(back.indexOf(200)).map(() => 200));
  });

  it('maps a statement timeout to a 503 problem document', async () => {
    const response = await fetch(`${base}/test/slow`);
    expect(response.status).toBe(503);
    expect(response.headers.get('content-type')).toContain('application/problem+json');
    expect(response.headers.get('retry-after')).toBe('5');
    expect(((await response.json()) as { type: string }).type).toBe('/problems/data-unavailable');
  });

  it('maps a server that refuses connections to 503 on /readyz and the API', async () => {
    const nowhere = openDatabase('postgres://postgres@127.0.0.1:1/none', { readonly: true });
    const offline = await buildApp(configWith({ logLevel: 'silent' }), { handle: nowhere });
    try {
      for (const url of ['/readyz', '/api/v1/failures']) {
        const response = await offline.inject({ method: 'GET', url });
        expect(response.statusCode).toBe(503);
        expect(response.headers['cache-control']).toBe('no-store');
        expect(response.json().type).toBe('/problems/data-unavailable');
      }
    } finally {
      await offline.close();
      await nowhere.close();
    }
  });
});
