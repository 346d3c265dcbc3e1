/**
 * `npm run bench:fdic`: a full `regdata ingest fdic-financials` with every catalogue field, against
 * a local HTTP server that answers BankFind's `/financials` in its exact JSON shape at real size
 * (BANKS institutions, default 4,500, at every quarter end from 2000-03-31 to 2024-12-31: 100 report
 * dates, one slice per date), with the default settings (page size, politeness interval). Prints
 * the wall time, the CLI's peak RSS (GNU time) and rows per second. Targets: < 15 min, < 1.5 GB.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildCli } from '../test/ingest/helpers/cli.js';

const BANKS = Number(process.env.BANKS ?? 4500);
const UNTIL = '2024-12-31';
const MAX_MINUTES = 15;
const MAX_RSS_MB = 1536;

/** A deterministic pseudo-random value in [0, 1) for (cert, date, field). */
function noise(cert: number, date: number, field: number): number {
  let x = (cert * 73_856_093) ^ (date * 19_349_663) ^ (field * 83_492_791);
  x = Math.imul(x ^ (x >>> 16), 0x45d9f3b);
  x = Math.imul(x ^ (x >>> 16), 0x45d9f3b);
  return ((x ^ (x >>> 16)) >>> 0) / 2 ** 32;
}

function record(cert: number, repdte: string, fields: readonly string[]) {
  const data: Record<string, unknown> = { CERT: cert, REPDTE: repdte, ID: `${cert}_${repdte}` };
  const date = Number(repdte);
  fields.forEach((field, i) => {
    if (field === 'CERT' || field === 'REPDTE') return;
    const r = noise(cert, date, i);
    // The holding company (the same at every date: 0 and '' for none), as BankFind gives it.
    if (field === 'RSSDHCR' || field === 'NAMEHCR') {
      const parent = noise(cert, 0, 0) < 0.3 ? null : cert % 700;
      if (field === 'RSSDHCR') data[field] = parent === null ? 0 : 1_000_000 + parent;
      else data[field] = parent === null ? '' : `HOLDING COMPANY ${parent}`;
      return;
    }
    // Amounts in thousands of USD for most codes; ratios (…R, …Y) in percent.
    data[field] = /(R|Y|RATIO)$/.test(field) ? Math.round(r * 2000) / 100 : Math.round(r * 5_000_000);
  });
  return { data };
}

function serve() {
  let requests = 0;
  const server = createServer((request, response) => {
    requests++;
    const url = new URL(request.url ?? '/', 'http://localhost');
    const fields = (url.searchParams.get('fields') ?? '').split(',');
    const repdte = /REPDTE:(\d{8})/.exec(url.searchParams.get('filters') ?? '')?.[1] ?? '20241231';
    const offset = Number(url.searchParams.get('offset') ?? 0);
    const limit = Number(url.searchParams.get('limit') ?? 10);
    const rows = [];
    for (let i = offset; i < Math.min(BANKS, offset + limit); i++)
      rows.push(record(10_000 + i, repdte, fields));
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ meta: { total: BANKS }, data: rows, totals: { count: BANKS } }));
  });
  return new Promise<{ url: string; requests: () => number; close: () => void }>((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        url: `http://127.0.0.1:${port}/banks`,
        requests: () => requests,
        close: () => server.close(),
      });
    });
  });
}

const dir = mkdtempSync(join(tmpdir(), 'regdata-bench-fdic-'));
const upstream = await serve();
try {
  const cli = await buildCli();
  const started = Date.now();
  const child = spawn(
    '/usr/bin/time',
    [
      '-f',
      'peak-rss-kb %M',
      process.execPath,
      cli,
      'ingest',
      'fdic-financials',
      '--until',
      UNTIL,
      '--progress',
      'none',
      '--json',
    ],
    {
      env: {
        PATH: process.env.PATH ?? '',
        DATABASE_URL: join(dir, 'bench.sqlite'),
        FDIC_API_URL: upstream.url,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  const seconds = (Date.now() - started) / 1000;
  const rssMb = Number(/peak-rss-kb (\d+)/.exec(stderr)?.[1] ?? 0) / 1024;
  const summary = JSON.parse(stdout || '{}');
  if (code !== 0) {
    // A refused or failed load is no measurement: say why and fail the benchmark.
    console.error(stderr);
    console.error(
      `ingest failed: ${JSON.stringify({ error: summary.error, refused: summary.refused, rejected: summary.rejected_reasons })}`,
    );
    process.exitCode = 1;
  }
  console.log(
    `fdic-financials: ${summary.read} rows (${BANKS} banks × ${upstream.requests()} requests) in ${seconds.toFixed(1)} s ` +
      `(${Math.round(summary.read / seconds)} rows/s), peak RSS ${rssMb.toFixed(0)} MB, exit ${code}`,
  );
  console.log(
    `targets: time < ${MAX_MINUTES} min ${seconds < MAX_MINUTES * 60 ? 'met' : 'MISSED'}; ` +
      `RSS < ${MAX_RSS_MB} MB ${rssMb < MAX_RSS_MB ? 'met' : 'MISSED'}`,
  );
} finally {
  upstream.close();
  rmSync(dir, { recursive: true, force: true });
}
