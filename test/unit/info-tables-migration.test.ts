/**
 * Migration 0004 packs an existing database's information-table rows per filing, and its down
 * migration unpacks them again, value for value, on both backends. The derivation then serves the
 * same positions from the packed rows as it did from the old table. Migration 0017 turns the packed
 * JSON records into the binary form and back, value for value.
 */
import { Migrator, sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { migrateToLatest } from '../../src/db/migrate.js';
import { migrationProvider } from '../../src/db/migrations/index.js';
import type { InfoRow13f } from '../../src/holdings/tables.js';
import { deriveHoldings } from '../../src/ingest/sources/sec/holdings/derive/index.js';
import { decodeInfoRows } from '../../src/ingest/sources/sec/holdings/info-row-codec.js';
import { fieldsOf, insertInfoRows } from '../../src/ingest/sources/sec/holdings/info-tables.js';
import { type TestDatabase, testBackends } from '../helpers/backends.js';
import { storedPositions } from '../helpers/positions.js';

const row = (
  accession: string,
  cusip: string,
  value: number,
  extra: Partial<InfoRow13f> = {},
): InfoRow13f => ({
  accession_number: accession,
  cusip,
  issuer: `ISSUER ${cusip}`,
  title_of_class: 'COM',
  value,
  shares: 100,
  share_type: 'SH',
  put_call: null,
  investment_discretion: 'SOLE',
  voting_sole: 100,
  voting_shared: null,
  voting_none: 0,
  ...extra,
});

const ROWS = [
  row('0000000001-25-000001', '037833100', 9_007_199_254, { put_call: 'Call' }),
  row('0000000001-25-000001', '594918104', 2000, { share_type: 'PRN', title_of_class: null }),
  row('0000000002-25-000001', '037833100', 3000, { issuer: 'Ünïcode "quoted" \\ issuer' }),
];

let database: TestDatabase | undefined;
afterEach(async () => {
  await database?.drop();
  database = undefined;
});

describe.each(testBackends())('migration 0004 (packed information tables) on $name', (backend) => {
  it('packs existing rows per filing and unpacks them on the way down', async () => {
    database = await backend.create();
    const { db } = database.writer;
    const migrator = new Migrator({ db, provider: migrationProvider });
    const down = await migrator.migrateTo('0003_holdings');
    expect(down.error).toBeUndefined();
    // The 0003 schema: one table row per holding.
    for (const r of ROWS)
      await db
        .insertInto('info_rows_13f' as never)
        .values(r as never)
        .execute();

    expect(await migrateToLatest(database.writer)).toContain('0004_info_tables');
    const packed = await db.selectFrom('info_tables_13f').selectAll().orderBy('accession_number').execute();
    expect(packed.map((p) => [p.accession_number, Number(p.part), Number(p.row_count)])).toEqual([
      ['0000000001-25-000001', 0, 2],
      ['0000000002-25-000001', 0, 1],
    ]);
    const unpacked = packed.flatMap((p) => decodeInfoRows(p.rows));
    const byCusipAndValue = (a: unknown[], b: unknown[]) => String(a).localeCompare(String(b));
    expect(unpacked.sort(byCusipAndValue)).toEqual(ROWS.map(fieldsOf).sort(byCusipAndValue));

    const back = await migrator.migrateTo('0003_holdings');
    expect(back.error).toBeUndefined();
    const { rows } =
      await sql<InfoRow13f>`select * from info_rows_13f order by accession_number, cusip`.execute(db);
    expect(
      rows.map((r) => ({
        ...r,
        value: Number(r.value),
        shares: Number(r.shares),
        voting_sole: Number(r.voting_sole),
        voting_none: Number(r.voting_none),
      })),
    ).toEqual(
      [...ROWS].sort(
        (a, b) => a.accession_number.localeCompare(b.accession_number) || a.cusip.localeCompare(b.cusip),
      ),
    );
    expect(await migrateToLatest(database.writer)).toContain('0004_info_tables');
  });

  it('migration 0017 encodes JSON records in the binary form and decodes them on the way down', async () => {
    database = await backend.create();
    const { db } = database.writer;
    const migrator = new Migrator({ db, provider: migrationProvider });
    expect((await migrator.migrateTo('0016_security_positions')).error).toBeUndefined();
    // More records than the migration reads at a time, a filing in two parts among them.
    const json = Array.from({ length: 450 }, (_, i) => ({
      accession_number: `0000000001-25-${String(Math.floor(i / 2)).padStart(6, '0')}`,
      part: i % 2,
      row_count: 3,
      rows: JSON.stringify(ROWS.map((r) => fieldsOf({ ...r, value: r.value + i }))),
    }));
    for (let i = 0; i < json.length; i += 100)
      await db
        .insertInto('info_tables_13f')
        .values(json.slice(i, i + 100) as never)
        .execute();

    expect(await migrateToLatest(database.writer)).toContain('0017_binary_info_rows');
    const binary = await db
      .selectFrom('info_tables_13f')
      .selectAll()
      .orderBy('accession_number')
      .orderBy('part')
      .execute();
    expect(binary).toHaveLength(json.length);
    binary.forEach((record, i) => {
      expect(record.rows).toBeInstanceOf(Uint8Array);
      expect(decodeInfoRows(record.rows)).toEqual(JSON.parse((json[i] as { rows: string }).rows));
    });
    const bytes = (rows: Uint8Array | string) =>
      typeof rows === 'string' ? Buffer.byteLength(rows) : rows.length;
    expect(bytes(binary[0]?.rows as Uint8Array)).toBeLessThan(bytes((json[0] as { rows: string }).rows));

    expect((await migrator.migrateTo('0016_security_positions')).error).toBeUndefined();
    const { rows: back } = await sql<{ rows: string }>`
      select rows from info_tables_13f order by accession_number, part`.execute(db);
    expect(back.map((r) => r.rows)).toEqual(json.map((r) => r.rows));
    expect(await migrateToLatest(database.writer)).toContain('0017_binary_info_rows');
  });

  it('derives positions from packed rows exactly as filed', async () => {
    database = await backend.create();
    const { writer } = database;
    await writer.db
      .insertInto('filings_13f')
      .values({
        accession_number: '0000000001-25-000001',
        cik: '0000000001',
        period_of_report: '2025-09-30',
        quarter: '2025-Q3',
        filing_date: '2025-11-14',
        form_type: '13F-HR',
        amendment_type: null,
        amendment_no: null,
        manager_name: 'ONE',
        city: null,
        state: null,
        country: null,
        report_type: null,
        table_value_total: null,
        table_entry_total: null,
      })
      .execute();
    await insertInfoRows(writer, ROWS.slice(0, 2));
    await deriveHoldings(writer);
    const positions = await storedPositions(writer.db);
    expect(
      positions.map((p) => [p.cusip, p.share_type, p.put_call, Number(p.value), Number(p.shares)]),
    ).toEqual([
      ['037833100', 'SH', 'CALL', 9_007_199.254, 100],
      ['594918104', 'PRN', null, 2, 100],
    ]);
  });
});
