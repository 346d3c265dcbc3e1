/**
 * COPY versus multi-row INSERT for bulk loads on PostgreSQL:
 *   npx vite-node bench/copy.ts [rows]   (BENCH_DATABASE_URL / TEST_DATABASE_URL, default local)
 * Loads the same synthetic financials rows into a scratch database both ways, each in one
 * transaction, and prints rows/s. The INSERT path is what insertRows did before COPY (and still does
 * when it cannot identify its connection, e.g. behind a transaction-mode pooler).
 */
import { type Kysely, sql } from 'kysely';
import pg from 'pg';
import { insertRows } from '../src/db/bulk.js';
import { openDatabase } from '../src/db/connect.js';
import { migrateToLatest } from '../src/db/migrate.js';
import type { Database } from '../src/db/tables.js';

const count = Number(process.argv[2] ?? 200_000);
const admin =
  process.env.BENCH_DATABASE_URL ??
  process.env.TEST_DATABASE_URL ??
  'postgres://postgres@127.0.0.1:5432/postgres';
const name = `regdata_bench_copy_${process.pid}`;

async function adminQuery(text: string) {
  const client = new pg.Client({ connectionString: admin });
  await client.connect();
  await client.query(text).finally(() => client.end());
}

const rows = Array.from({ length: count }, (_, i) => ({
  cert: 1 + (i % 6000),
  report_date: `${2000 + Math.floor(i / 6000 / 4)}-${['03-31', '06-30', '09-30', '12-31'][Math.floor(i / 6000) % 4]}`,
  total_assets: i * 17.25,
  total_deposits: i * 13.5,
  total_loans: i % 7 === 0 ? null : i * 9.75,
  total_equity: i * 1.5,
  net_income: i % 11 === 0 ? -i : i * 0.1,
  roa: 1.05,
  roe: 10.5,
  efficiency_ratio: 61.2,
  npl_ratio: null,
  tier1_leverage: 9.8,
  equity_ratio: 11.1,
  loan_to_deposit: 80.2,
  charge_off_rate: 0.3,
  source: 'demo',
}));

async function insertBatches(db: Kysely<Database>): Promise<void> {
  const batch = Math.floor(60_000 / 16);
  await db.transaction().execute(async (trx) => {
    for (let i = 0; i < rows.length; i += batch)
      await trx
        .insertInto('financials')
        .values(rows.slice(i, i + batch))
        .execute();
  });
}

await adminQuery(`create database ${name}`);
const url = new URL(admin);
url.pathname = `/${name}`;
const handle = openDatabase(url.toString());
try {
  await migrateToLatest(handle);
  const timings: Record<string, number> = {};
  for (const [label, load] of [
    ['multi-row INSERT', () => insertBatches(handle.db)],
    [
      'COPY (insertRows)',
      () => handle.db.transaction().execute((trx) => insertRows(handle, 'financials', rows, trx)),
    ],
  ] as const) {
    await sql`truncate financials`.execute(handle.db);
    const started = performance.now();
    await load();
    timings[label] = performance.now() - started;
    console.log(
      `${label.padEnd(18)} ${count} rows in ${Math.round(timings[label])} ms = ${Math.round(count / (timings[label] / 1000))} rows/s`,
    );
  }
} finally {
  await handle.close();
  await adminQuery(`drop database ${name} with (force)`);
}
