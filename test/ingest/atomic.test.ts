/**
 * Never serving a partial load: an ingest killed (SIGKILL) at several points of a large load
 * leaves the API answering with the previous data and the database intact; and a running HTTP
 * server switches from the old data to the new without a failed request.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { configWith } from '../../src/config.js';
import { type Backend, type TestDatabase, testBackends } from '../helpers/backends.js';
import { type ApiUnderTest, openApi } from './helpers/api.js';
import { ingestJson, startCli } from './helpers/cli.js';
import { FIXTURES } from './helpers/upstream.js';

const BIG_ROWS = 150_000;

/** A BankFind-style financials CSV: `certs` banks × 2 report dates. */
function writeFinancials(path: string, rows: number): void {
  const lines = ['CERT,REPDTE,ASSET,DEP,ROA,ROE'];
  for (let i = 0; i < rows; i++) {
    const cert = 100_000 + Math.floor(i / 2);
    lines.push(`${cert},${i % 2 ? '20240331' : '20231231'},${1000 + i},${900 + i},1.${i % 100},9.5`);
  }
  writeFileSync(path, `${lines.join('\n')}\n`);
}

/** A BankFind failures CSV with `rows` synthetic failures in 2001. */
function writeFailures(path: string, rows: number): void {
  const lines = [
    '"CERT","NAME","CITY","PSTALP","FAILDATE","BIDNAME","RESTYPE1","SAVR","QBFASSET","QBFDEP","COST"',
  ];
  for (let i = 0; i < rows; i++)
    lines.push(`${50_000 + i},"BANK ${i}","TOWN","TX","6/1/2001","0","PO","DIF",10,9,1`);
  writeFileSync(path, `${lines.join('\n')}\n`);
}

async function financialsCount(database: TestDatabase): Promise<number> {
  const row = await database.writer.db
    .selectFrom('financials')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

describe.each(testBackends())('atomic loads on $name', (backend: Backend) => {
  let database: TestDatabase;
  let api: ApiUnderTest;
  let dir: string;
  let env: Record<string, string>;

  beforeAll(async () => {
    database = await backend.create();
    api = await openApi(database);
    dir = mkdtempSync(join(tmpdir(), 'regdata-atomic-'));
    env = { DATABASE_URL: database.url };
  });
  afterAll(async () => {
    await api?.close();
    await database?.drop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('a SIGKILLed load leaves the previous data served and the database intact', {
    timeout: 300_000,
  }, async () => {
    const small = join(dir, 'small.csv');
    writeFinancials(small, 10);
    expect((await ingestJson(['fdic-financials', '--from', small], env)).summary.ok).toBe(true);
    const big = join(dir, 'big.csv');
    writeFinancials(big, BIG_ROWS);
    const before = await api.get('/api/v1/meta');

    let killedMidLoad = 0;
    let finished = false;
    for (const delayMs of [0, 300, 800, 1500, 2500]) {
      const run = await startCli(['ingest', 'fdic-financials', '--from', big, '--progress', 'lines'], env);
      // "fdic-financials: financials …" is printed once the staging table exists and rows start.
      expect(await run.stderrContains('fdic-financials: financials')).toBe(true);
      await new Promise((resolve) => setTimeout(resolve, delayMs));
      run.child.kill('SIGKILL');
      const result = await run.done;
      // The load may win the race: it exits, or it commits and is killed just after (during the
      // WAL checkpoint or closing). Either way it is served in full; later kills prove nothing new.
      const served = await financialsCount(database);
      if (result.signal !== 'SIGKILL' || served === BIG_ROWS) {
        expect(served).toBe(BIG_ROWS);
        finished = true;
        break;
      }
      killedMidLoad++;
      expect(served).toBe(10);
      const meta = await api.get('/api/v1/meta');
      expect(meta.body.dataset_version).toBe(before.body.dataset_version);
      if (database.writer.sqlite) {
        expect(database.writer.sqlite.pragma('integrity_check', { simple: true })).toBe('ok');
      } else {
        const check = await sql<{ n: number }>`select count(*) as n from financials`.execute(
          database.writer.db,
        );
        expect(Number(check.rows[0]!.n)).toBe(10);
      }
    }
    expect(killedMidLoad).toBeGreaterThanOrEqual(3);
    // The next run cleans up after the killed ones and loads in full.
    const { summary } = await ingestJson(['fdic-financials', '--from', big], env);
    const served = finished ? BIG_ROWS : 10;
    expect(summary).toMatchObject({ ok: true, read: BIG_ROWS, inserted: BIG_ROWS - served, updated: served });
    expect(await financialsCount(database)).toBe(BIG_ROWS);
  });

  it('a load killed inside its open swap transaction changes nothing; readers never wait', {
    timeout: 180_000,
  }, async () => {
    const before = await api.get('/api/v1/meta');
    const served = await financialsCount(database);
    const next = join(dir, 'next.csv');
    writeFinancials(next, 2000);
    // Fewer banks than served: a shrink, accepted so that the load reaches its swap.
    const args = ['ingest', 'fdic-financials', '--from', next, '--progress', 'none', '--allow-shrink'];
    const run = await startCli(args, {
      ...env,
      INGEST_SWAP_PAUSE_MS: '60000',
    });
    // The served rows are deleted and the new ones inserted, uncommitted, when this line appears.
    expect(await run.stderrContains('swap transaction open')).toBe(true);
    const during = await api.get('/api/v1/meta');
    expect(during.status).toBe(200);
    expect(during.body.dataset_version).toBe(before.body.dataset_version);
    expect(await financialsCount(database)).toBe(served);
    run.child.kill('SIGKILL');
    expect((await run.done).signal).toBe('SIGKILL');
    expect(await financialsCount(database)).toBe(served);
    expect((await api.get('/api/v1/meta')).body.dataset_version).toBe(before.body.dataset_version);
    if (database.writer.sqlite) {
      expect(database.writer.sqlite.pragma('integrity_check', { simple: true })).toBe('ok');
    }
  });

  it('a running server switches to the new data without a failed request', { timeout: 180_000 }, async () => {
    const first = await ingestJson(
      ['fdic-failures', '--from', join(FIXTURES, 'bankfind', 'failures-page1.json')],
      env,
    );
    expect(first.summary.ok).toBe(true);
    const reader = database.openReader();
    const app = await buildApp(configWith({ logLevel: 'silent', versionPollMs: 50 }), { handle: reader });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    const next = join(dir, 'failures.csv');
    writeFailures(next, 3000);
    const seen: { status: number; total: number; version: number }[] = [];
    try {
      const ingest = ingestJson(['fdic-failures', '--from', next], env);
      let finished = false;
      void ingest.finally(() => {
        finished = true;
      });
      // Keep asking while the load runs, and a little after it.
      let after = 0;
      while (!finished || after++ < 5) {
        const failures = await request(`${base}/api/v1/failures?limit=1`);
        const meta = await request(`${base}/api/v1/meta`);
        const body = (await failures.body.json()) as { total: number };
        const metaBody = (await meta.body.json()) as { dataset_version: number };
        seen.push({ status: failures.statusCode, total: body.total, version: metaBody.dataset_version });
        expect(meta.statusCode).toBe(200);
      }
      expect((await ingest).summary.ok).toBe(true);
    } finally {
      await app.close();
      await reader.close();
    }
    expect(seen.every((s) => s.status === 200)).toBe(true);
    expect(new Set(seen.map((s) => s.total))).toEqual(new Set([3, 3000]));
    const switchedAt = seen.findIndex((s) => s.total === 3000);
    expect(seen.slice(switchedAt).every((s) => s.total === 3000)).toBe(true);
    expect(seen.at(-1)!.version).toBeGreaterThan(seen[0]!.version);
  });
});
