/**
 * `npm run bench -- --compare-backends [--quick] [--seconds N] [--only NAME] [--cached]`: the same
 * endpoints and URL sets (bench/http-urls.ts) against the BUILT server on SQLite and on PostgreSQL,
 * side by side. Both databases hold the same demo dataset: the SQLite file in bench/.out/ (built
 * once) and its copy in a PostgreSQL database `regdata_bench_<scale>` on BENCH_DATABASE_URL
 * (default: TEST_DATABASE_URL, else postgres://postgres@127.0.0.1:5432/postgres), copied once. The PostgreSQL server connects as a read-only role, as in production. Load comes
 * from a separate autocannon process; by default with the response cache off (`--no-cache`, 10
 * connections), so the figures are the databases' and not the cache's; `--cached` adds the
 * cached run at 50 connections. Writes bench/.out/backends-<scale>.json.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'kysely';
import pg from 'pg';
import { openDatabase } from '../src/db/connect.js';
import { migrateToLatest } from '../src/db/migrate.js';
import { createReadOnlyRole } from '../src/db/roles.js';
import { copySqliteIntoPostgres } from '../test/helpers/sqlite-to-postgres.js';
import {
  buildDemoDataset,
  generateLoad,
  type LoadResult,
  type Proc,
  ROOT,
  startServer,
} from './http-procs.js';
import { urlSets } from './http-urls.js';

const OUT = join(ROOT, 'bench/.out');
const READER_ROLE = 'regdata_bench_reader';

export interface CompareOptions {
  readonly scale: 'small' | 'full';
  readonly seconds: number;
  readonly only?: string | undefined;
  readonly cached: boolean;
}

interface Row {
  name: string;
  urls: string[];
  /** Whether `urls` has been narrowed to the paths answering 200 on both backends. */
  checked: boolean;
  runs: Record<string, { sqlite: LoadResult; postgres: LoadResult }>;
}

function databaseUrl(base: string, database: string, user?: string): string {
  const url = new URL(base);
  url.pathname = `/${database}`;
  if (user) {
    url.username = user;
    url.password = '';
  }
  return url.toString();
}

async function adminQuery(adminUrl: string, text: string, values: unknown[] = []) {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    return await client.query(text, values);
  } finally {
    await client.end();
  }
}

/**
 * Fills `regdata_bench_<scale>` with a copy of the SQLite demo file (COPY; identical data, and much
 * faster than building the demo again) unless it is already loaded; returns the reader URL.
 */
async function preparePostgres(adminUrl: string, scale: string, sqlite: string): Promise<string> {
  const name = `regdata_bench_${scale}`;
  const ownerUrl = databaseUrl(adminUrl, name);
  const exists = await adminQuery(adminUrl, 'select 1 from pg_database where datname = $1', [name]);
  let loaded = false;
  if (exists.rowCount) {
    const sources = await adminQuery(ownerUrl, 'select count(*)::int as n from sources').catch(() => null);
    loaded = Number(sources?.rows[0]?.n ?? 0) > 0;
  }
  if (!loaded) {
    await adminQuery(adminUrl, `drop database if exists ${name} with (force)`);
    await adminQuery(adminUrl, `create database ${name}`);
    console.error(`copying ${sqlite} into PostgreSQL ${name} (once) …`);
    const started = Date.now();
    const owner = openDatabase(ownerUrl);
    try {
      await migrateToLatest(owner);
      const rows = await copySqliteIntoPostgres(sqlite, owner);
      await sql`analyze`.execute(owner.db);
      console.error(`copied ${rows} rows in ${Math.round((Date.now() - started) / 1000)} s`);
    } finally {
      await owner.close();
    }
  }
  const owner = openDatabase(ownerUrl);
  try {
    await createReadOnlyRole(owner, READER_ROLE);
  } finally {
    await owner.close();
  }
  return databaseUrl(adminUrl, name, READER_ROLE);
}

/** The paths of `paths` that answer 200 on both servers (the same data, so normally all). */
async function answeringOnBoth(servers: Proc[], name: string, paths: string[]): Promise<string[]> {
  const ok: string[] = [];
  for (const path of paths) {
    const statuses = await Promise.all(
      servers.map(async (server) => {
        const response = await fetch(server.origin + path);
        await response.arrayBuffer();
        return response.status;
      }),
    );
    if (statuses.every((status) => status === 200)) ok.push(path);
    else console.error(`  ${name}: ${path} answered ${statuses.join(' / ')} (SQLite / PostgreSQL); left out`);
  }
  return ok;
}

async function runMode(
  rows: Row[],
  sqlite: string,
  postgres: string,
  mode: 'uncached' | 'cached',
  options: CompareOptions,
) {
  const connections = mode === 'cached' ? 50 : 10;
  const servers = [
    await startServer(sqlite, mode === 'cached'),
    await startServer(postgres, mode === 'cached'),
  ];
  try {
    console.error(
      `${mode}: ${rows.length} endpoints × ${options.seconds} s at ${connections} connections, per backend …`,
    );
    for (const row of rows) {
      if (!row.checked) {
        row.urls = await answeringOnBoth(servers, row.name, row.urls);
        row.checked = true;
      }
      if (row.urls.length === 0) continue;
      const [onSqlite, onPostgres] = [
        await generateLoad(servers[0]?.origin ?? '', row.urls, connections, options.seconds),
        await generateLoad(servers[1]?.origin ?? '', row.urls, connections, options.seconds),
      ];
      row.runs[mode] = { sqlite: onSqlite, postgres: onPostgres };
      console.error(`  ${row.name}: ${Math.round(onSqlite.rps)} vs ${Math.round(onPostgres.rps)} req/s`);
    }
  } finally {
    for (const server of servers) await server.stop();
  }
}

const pad = (value: string | number, width: number) => String(value).padStart(width);
const failed = (r: LoadResult) =>
  r.errors +
  r.timeouts +
  Object.entries(r.statuses).reduce((n, [code, k]) => (Number(code) >= 400 ? n + k : n), 0);

function table(rows: Row[], mode: string, connections: number): string[] {
  const lines = [
    `${mode} @${connections} connections (latencies in ms)`,
    `${'endpoint'.padEnd(18)} │ SQLite: ${pad('req/s', 7)}${pad('p50', 5)}${pad('p99', 5)} │ PostgreSQL: ${pad('req/s', 7)}${pad('p50', 5)}${pad('p99', 5)} │ ${pad('PG/SQLite', 9)} │ failed`,
  ];
  for (const row of rows) {
    const run = row.runs[mode];
    if (!run) continue;
    const { sqlite: s, postgres: p } = run;
    lines.push(
      `${row.name.padEnd(18)} │ ${' '.repeat(8)}${pad(Math.round(s.rps), 7)}${pad(s.p50, 5)}${pad(s.p99, 5)} │ ${' '.repeat(12)}${pad(Math.round(p.rps), 7)}${pad(p.p50, 5)}${pad(p.p99, 5)} │ ${pad(`${Math.round((p.rps / s.rps) * 100)}%`, 9)} │ ${failed(s) + failed(p)}`,
    );
  }
  return lines;
}

export async function compareBackends(options: CompareOptions): Promise<void> {
  mkdirSync(OUT, { recursive: true });
  const sqlite = join(OUT, `${options.scale}.sqlite`);
  if (!existsSync(sqlite)) {
    console.error(`building the ${options.scale} demo dataset into ${sqlite} (once) …`);
    await buildDemoDataset(sqlite, options.scale);
  }
  const adminUrl =
    process.env.BENCH_DATABASE_URL ??
    process.env.TEST_DATABASE_URL ??
    'postgres://postgres@127.0.0.1:5432/postgres';
  const postgres = await preparePostgres(adminUrl, options.scale, sqlite);
  const rows: Row[] = Object.entries(urlSets(sqlite))
    .filter(([name]) => !options.only || name === options.only)
    .map(([name, urls]) => ({ name, urls, checked: false, runs: {} }));
  const modes: ('uncached' | 'cached')[] = options.cached ? ['uncached', 'cached'] : ['uncached'];
  for (const mode of modes) await runMode(rows, sqlite, postgres, mode, options);
  const report = [
    `Backends side by side: ${options.scale}-scale demo dataset, ${options.seconds} s per run, built server, PostgreSQL as a read-only role`,
    ...table(rows, 'uncached', 10),
    ...(options.cached ? ['', ...table(rows, 'cached', 50)] : []),
  ];
  console.log(report.join('\n'));
  writeFileSync(
    join(OUT, `backends-${options.scale}${options.only ? `-${options.only}` : ''}.json`),
    `${JSON.stringify({ ...options, rows: rows.map(({ name, urls, runs }) => ({ name, urls, runs })) }, null, 2)}\n`,
  );
}
