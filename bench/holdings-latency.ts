/**
 * Latency of every holdings endpoint on the small demo dataset:
 *   npx vite-node bench/holdings-latency.ts [sqlite-path]
 * Without a path it builds the whole demo (`regdata demo`, seed default, scale small) into a temp
 * file first. It then starts the real server (startServer, read-only SQLite, response cache OFF so
 * every request runs its queries) on a random port and times 20 sequential requests per endpoint
 * with undici after 2 warm-ups; `cpu` is the median CPU time this process (server and client) spent
 * per request, which stays meaningful when a busy machine inflates wall times. Exits 1 when an endpoint's slowest request takes 50 ms or more, or
 * when /api/smart-money has an empty group.
 */
import { mkdtempSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { configWith } from '../src/config.js';
import { openDatabase } from '../src/db/connect.js';
import { buildDemo, DEFAULT_DEMO_SEED } from '../src/demo/index.js';
import { startServer } from '../src/server.js';

const RUNS = 20;
const BUDGET_MS = 50;

async function prepareDatabase(): Promise<string> {
  if (process.argv[2]) return process.argv[2];
  const path = join(mkdtempSync(join(tmpdir(), 'holdings-latency-')), 'demo.sqlite');
  const handle = openDatabase(path);
  const started = Date.now();
  await buildDemo(handle, { seed: DEFAULT_DEMO_SEED, scale: 'small', log: (line) => console.log(line) });
  await handle.close();
  console.log(`demo built in ${Date.now() - started} ms → ${path}`);
  return path;
}

/** Real identifiers from the data: the biggest managers, the most held CUSIP, an adviser. */
async function sampleUrls(path: string): Promise<string[]> {
  const handle = openDatabase(path, { readonly: true });
  const { db } = handle;
  const latest = (
    await db
      .selectFrom('holdings_quarters')
      .select('quarter')
      .orderBy('quarter', 'desc')
      .executeTakeFirstOrThrow()
  ).quarter;
  const big = await db
    .selectFrom('manager_quarters')
    .select('cik')
    .where('quarter', '=', latest)
    .orderBy('total_value', 'desc')
    .limit(5)
    .execute();
  const ciks = big.map((row) => row.cik);
  const cusip = (
    await db
      .selectFrom('security_quarters')
      .select('cusip')
      .where('quarter', '=', latest)
      .orderBy('holder_count', 'desc')
      .executeTakeFirstOrThrow()
  ).cusip;
  const crd = (await db.selectFrom('advisers').select('crd').orderBy('aum', 'desc').executeTakeFirstOrThrow())
    .crd;
  await handle.close();
  return [
    '/api/meta',
    '/api/stats',
    '/api/advisers',
    '/api/advisers?q=capital&state=NY&sort=name&order=asc',
    '/api/advisers?aum_min=1e9&sort=employees',
    `/api/advisers/${crd}`,
    '/api/holdings',
    '/api/holdings?q=partners&offset=50',
    '/api/holdings?mode=stocks',
    '/api/holdings?mode=stocks&q=energy',
    `/api/holdings?mode=stocks&cusip=${cusip}`,
    `/api/holdings?mode=stocks&cusip=${cusip}&limit=200&offset=400`,
    `/api/holdings/${ciks[0]}`,
    `/api/holdings/${ciks[0]}/timeline`,
    '/api/crowded?limit=100',
    '/api/smart-money?limit=100',
    `/api/overlap?ciks=${ciks.join(',')}`,
    `/api/compare?cik1=${ciks[0]}&cik2=${ciks[1]}`,
    '/api/macro',
  ];
}

async function timeUrl(base: string, url: string) {
  const times: number[] = [];
  const cpus: number[] = [];
  let status = 0;
  let bytes = 0;
  for (let i = 0; i < RUNS + 2; i++) {
    const cpu = process.cpuUsage();
    const started = process.hrtime.bigint();
    const response = await request(base + url);
    const body = await response.body.text();
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    status = response.statusCode;
    bytes = body.length;
    const used = process.cpuUsage(cpu);
    if (i >= 2) {
      times.push(ms);
      cpus.push((used.user + used.system) / 1000);
    }
  }
  times.sort((a, b) => a - b);
  cpus.sort((a, b) => a - b);
  const at = (p: number) => times[Math.min(times.length - 1, Math.floor(p * times.length))] as number;
  const cpuMedian = cpus[Math.floor(cpus.length / 2)] as number;
  return { url, status, bytes, median: at(0.5), p95: at(0.95), max: times.at(-1) as number, cpuMedian };
}

const path = await prepareDatabase();
const urls = await sampleUrls(path);
const app = await startServer(
  configWith({ databaseUrl: path, port: 0, host: '127.0.0.1', logLevel: 'silent', cacheEnabled: false }),
);
const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
let failed = false;
console.log(`${RUNS} sequential requests per endpoint (after 2 warm-ups), response cache off, ms:`);
for (const url of urls) {
  const r = await timeUrl(base, url);
  const slow = r.status !== 200 || r.max >= BUDGET_MS;
  failed ||= slow;
  console.log(
    `${slow ? 'SLOW' : 'ok  '} ${r.status} median ${r.median.toFixed(1).padStart(6)} p95 ${r.p95.toFixed(1).padStart(6)} max ${r.max.toFixed(1).padStart(6)} cpu ${r.cpuMedian.toFixed(1).padStart(5)} ${String(r.bytes).padStart(8)} B  ${r.url}`,
  );
}
const smart = (await (await request(`${base}/api/smart-money`)).body.json()) as Record<string, unknown[]>;
const groups = ['new_entries', 'biggest_inflows', 'top_exits'].map((g) => `${g}=${smart[g]?.length ?? 0}`);
console.log(`smart-money groups: ${groups.join(', ')}`);
if (['new_entries', 'biggest_inflows', 'top_exits'].some((g) => (smart[g]?.length ?? 0) === 0)) failed = true;
await app.close();
process.exit(failed ? 1 : 0);
