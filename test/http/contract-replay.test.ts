/**
 * The served answers obey the served contract: a list of requests (every operation, JSON and CSV,
 * valid and invalid) is replayed through Prism's validating proxy (`prism proxy`, Stoplight) in
 * front of a real server on the small demo dataset; Prism checks each response's status, media
 * type, headers and body against /openapi.json and reports violations in `sl-violations`. None may
 * be reported. SQLite only: the contract is the same on both backends (test/http suites compare them).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DbHandle } from '../../src/db/connect.js';
import { buildBankingDemoWith } from '../../src/demo/banking/index.js';
import { buildHoldingsDemo } from '../../src/demo/holdings/index.js';
import { DEFAULT_DEMO_SEED } from '../../src/demo/index.js';
import { getJson, useTestApp } from '../helpers/app.js';
import { testBackends } from '../helpers/backends.js';

/** Prism's CLI script, run with this node directly (through npx, killing npx would leave it running). */
const PRISM_CLI = createRequire(import.meta.url).resolve('@stoplight/prism-cli/dist/index.js');
const DEMO = { seed: DEFAULT_DEMO_SEED, scale: 'small' as const };
const sqlite = testBackends().find((backend) => backend.name === 'sqlite')!;

async function seed(writer: DbHandle) {
  await buildBankingDemoWith(writer, DEMO, { active: 200, inactive: 40 });
  await buildHoldingsDemo(writer, DEMO);
}

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

interface Violation {
  location: string[];
  severity: string;
  message: string;
}

describe('every answer conforms to /openapi.json (Prism validating proxy)', () => {
  const ctx = useTestApp(sqlite, seed);
  const dir = mkdtempSync(join(tmpdir(), 'regdata-prism-'));
  let prism: ChildProcess | undefined;
  let proxy = '';
  let output = '';

  beforeAll(async () => {
    const upstream = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    const documentPath = join(dir, 'openapi.json');
    writeFileSync(documentPath, JSON.stringify(ctx.app.swagger()));
    const port = await freePort();
    prism = spawn(
      process.execPath,
      [PRISM_CLI, 'proxy', documentPath, upstream, '--host', '127.0.0.1', '--port', String(port)],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    prism.stdout?.on('data', (chunk) => (output += chunk));
    prism.stderr?.on('data', (chunk) => (output += chunk));
    proxy = `http://127.0.0.1:${port}`;
    for (let attempt = 0; attempt < 120; attempt++) {
      if (
        await fetch(`${proxy}/healthz`).then(
          (r) => r.ok,
          () => false,
        )
      )
        return;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    throw new Error(`prism did not start:\n${output}`);
  }, 60_000);

  afterAll(() => {
    prism?.kill();
    rmSync(dir, { recursive: true, force: true });
  });

  /** One request per operation at least, with ids taken from the data, plus CSV and error cases. */
  async function requests(): Promise<string[]> {
    const get = async (url: string) => (await getJson(ctx.app, url)).body;
    const cert = (await get('/api/v1/banks?limit=1')).data[0].cert;
    const date = (await get(`/api/v1/financials?cert=${cert}&limit=1`)).data[0].report_date;
    const [manager, other] = (await get('/api/holdings?limit=2')).data.map((m: { cik: string }) => m.cik);
    const position = (await get(`/api/holdings/${manager}`)).holdings[0];
    const crd = (await get('/api/advisers?limit=1')).data[0].crd;
    return [
      '/healthz',
      '/readyz',
      '/api/v1/meta',
      '/api/v1/banks?state=TX&limit=5',
      '/api/v1/banks?limit=3&format=csv',
      `/api/v1/banks/${cert}/profile`,
      '/api/v1/banks/999999999/profile',
      `/api/v1/financials?cert=${cert}&limit=4`,
      '/api/v1/financials?fields=total_assets,roa&sortBy=roa&limit=3',
      '/api/v1/financials?limit=3&format=csv',
      '/api/v1/financials?total_assets__gte=abc&bogus_field__lt=1',
      '/api/v1/financials/revisions?limit=3',
      '/api/v1/fields',
      '/api/v1/fields.md',
      `/api/v1/peers/${cert}`,
      `/api/v1/peers/${cert}/history?metric=roa`,
      `/api/v1/peers/${cert}/history?metric=roa&format=csv`,
      `/api/v1/aggregates?date=${date}&group_by=state&metrics=roa`,
      '/api/v1/aggregates?metrics=total_assets',
      '/api/v1/macro?series=UNRATE&limit=5',
      '/api/v1/macro?series=NOPE',
      '/api/v1/failures?limit=3',
      '/api/v1/failures?limit=3&format=csv',
      '/api/v1/failures?year=abc',
      '/api/v1/changes?since=0',
      '/api/v1/freshness',
      `/embed/${cert}`,
      `/embed/${cert}/roa`,
      `/embed/${cert}/roa.svg`,
      '/embed/abc/roa',
      '/api/meta',
      '/api/stats',
      '/api/advisers?limit=3',
      '/api/advisers?limit=3&format=csv',
      `/api/advisers/${crd}`,
      '/api/advisers/0',
      '/api/holdings?limit=3',
      `/api/holdings/${manager}`,
      '/api/holdings/0000000001',
      '/api/holdings/notacik',
      `/api/holdings/${manager}/timeline`,
      `/api/holdings/${manager}/changes?limit=5`,
      `/api/holdings/${manager}/changes?limit=5&format=csv`,
      `/api/holdings/${manager}/positions/${position.cusip}`,
      '/api/securities?q=a&limit=3',
      `/api/securities/${position.cusip}`,
      `/api/securities/${position.cusip}/holders?limit=3`,
      '/api/filing-progress',
      '/api/crowded?limit=5',
      '/api/crowded?limit=5&format=csv',
      '/api/smart-money?limit=3',
      `/api/overlap?ciks=${manager},${other}`,
      `/api/compare?cik1=${manager}&cik2=${other}`,
      `/api/entities/resolve?id=cert:${cert}`,
      '/api/entities/resolve?id=nonsense',
      '/api/changes?since=0',
      '/api/freshness',
      '/api/macro?series=UNRATE',
      // No export is published in this app: the documented 404 problem.
      '/bulk/',
      '/bulk/financials.parquet',
    ];
  }

  it('reports no violation for any of the replayed requests', async () => {
    const violations: { url: string; status: number; violations: Violation[] }[] = [];
    const statuses = new Set<number>();
    let requestViolations = 0;
    for (const url of await requests()) {
      const response = await fetch(proxy + url);
      await response.arrayBuffer();
      statuses.add(response.status);
      const header = response.headers.get('sl-violations');
      // Requests that break the contract on purpose (the 400 cases) are reported too: keep the
      // response's violations only.
      const all = header ? (JSON.parse(header) as Violation[]) : [];
      const found = all.filter((violation) => violation.location[0] === 'response');
      requestViolations += all.length - found.length;
      if (found.length > 0) violations.push({ url, status: response.status, violations: found });
    }
    expect(violations).toEqual([]);
    // The replay covered answers, client errors and not-found problems.
    expect([...statuses]).toEqual(expect.arrayContaining([200, 400, 404]));
    // Prism validated: it flagged the requests that break the contract on purpose.
    expect(requestViolations).toBeGreaterThanOrEqual(3);
  }, 120_000);
});
