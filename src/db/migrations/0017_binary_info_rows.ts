/**
 * Raw information-table records (`info_tables_13f.rows`) in a compact binary form
 * (src/ingest/sources/sec/holdings/info-row-codec.ts) instead of JSON text: ~40 % fewer bytes for
 * the largest thing a 13F load writes (docs/ingest-holdings.md). Existing records are converted in
 * place, in one transaction; down converts them back to JSON text holding the same values.
 *
 * PostgreSQL's column becomes `bytea` (text holds no binary). SQLite's keeps its declared type
 * `text`: a value's storage class is its own, so the records are stored as BLOBs without
 * rebuilding the table. Only the load and the derivation read these records, never an API process,
 * so processes of the previous release keep serving during a rollout; its `regdata ingest` must not
 * run against a migrated database.
 */
import { type Kysely, sql } from 'kysely';
import {
  decodeInfoRows,
  FORMAT,
  InfoRowEncoder,
  type InfoRowFields,
} from '../../ingest/sources/sec/holdings/info-row-codec.js';
import { isPostgres } from '../dialect.js';

type Db = Kysely<unknown>;
type Stored = string | Uint8Array;

/** Records read and rewritten at a time (a record is a whole filing: ~40 KB of JSON on average). */
const RECORDS_PER_READ = 200;

const isBinary = (rows: Stored) => typeof rows !== 'string' && rows[0] === FORMAT;

function toBinary(rows: Stored): Uint8Array {
  const text = typeof rows === 'string' ? rows : Buffer.from(rows).toString('utf8');
  const encoder = new InfoRowEncoder();
  for (const row of JSON.parse(text) as InfoRowFields[]) encoder.addFields(row);
  return encoder.finish();
}

/** Rewrites every record with `convert`, a page at a time in key order. */
async function rewrite(db: Db, convert: (rows: Stored) => Stored | null): Promise<void> {
  let after = { accession: '', part: -1 };
  for (;;) {
    const { rows: page } = await sql<{ accession_number: string; part: number; rows: Stored }>`
      select accession_number, part, rows from info_tables_13f
      where accession_number > ${after.accession} or (accession_number = ${after.accession} and part > ${after.part})
      order by accession_number, part limit ${RECORDS_PER_READ}`.execute(db);
    for (const record of page) {
      const converted = convert(record.rows);
      if (converted === null) continue;
      await sql`update info_tables_13f set rows = ${converted}
        where accession_number = ${record.accession_number} and part = ${record.part}`.execute(db);
    }
    const last = page.at(-1);
    if (!last || page.length < RECORDS_PER_READ) return;
    after = { accession: last.accession_number, part: Number(last.part) };
  }
}

/** One transaction on SQLite too (its migrations run outside one): never a half-converted table. */
async function inOneTransaction(db: Db, change: (db: Db) => Promise<void>): Promise<void> {
  if (db.isTransaction) return change(db);
  await db.transaction().execute(change);
}

export async function up(db: Db): Promise<void> {
  await inOneTransaction(db, async (trx) => {
    if (isPostgres(trx))
      await sql`alter table info_tables_13f alter column rows type bytea using convert_to(rows, 'UTF8')`.execute(
        trx,
      );
    await rewrite(trx, (rows) => (isBinary(rows) ? null : toBinary(rows)));
  });
}

export async function down(db: Db): Promise<void> {
  await inOneTransaction(db, async (trx) => {
    const postgres = isPostgres(trx);
    await rewrite(trx, (rows) => {
      if (!isBinary(rows)) return null;
      const json = JSON.stringify(decodeInfoRows(rows as Uint8Array));
      return postgres ? Buffer.from(json, 'utf8') : json;
    });
    if (postgres)
      await sql`alter table info_tables_13f alter column rows type text using convert_from(rows, 'UTF8')`.execute(
        trx,
      );
  });
}
