/**
 * deriveHoldings adds held CUSIPs the security master lacks (upper-cased, issuer and title from the
 * filed rows) and leaves known ones alone, including after the "nothing missing" shortcut; and,
 * once a new master replaced the old one, gives a row back to each held CUSIP it lacks.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { insertRows } from '../../src/db/bulk.js';
import { type DbHandle, openDatabase } from '../../src/db/connect.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { deriveHoldings } from '../../src/ingest/sources/sec/holdings/derive/index.js';
import { addHeldMissingSecurities } from '../../src/ingest/sources/sec/holdings/derive/securities.js';
import { insertInfoRows } from '../../src/ingest/sources/sec/holdings/info-tables.js';

const filing = {
  accession_number: '0000000101-25-000001',
  cik: '0000000101',
  period_of_report: '2025-09-30',
  quarter: '2025-Q3',
  filing_date: '2025-11-10',
  form_type: '13F-HR',
  amendment_type: null,
  amendment_no: null,
  manager_name: 'Example Capital',
  city: null,
  state: null,
  country: null,
  report_type: '13F HOLDINGS REPORT',
  table_value_total: 3000,
  table_entry_total: 2,
};

function infoRow(cusip: string, issuer: string, value: number) {
  return {
    accession_number: filing.accession_number,
    cusip,
    issuer,
    title_of_class: 'COM',
    value,
    shares: 10,
    share_type: 'SH',
    put_call: null,
    investment_discretion: 'SOLE',
    voting_sole: 10,
    voting_shared: 0,
    voting_none: 0,
  };
}

let handle: DbHandle | undefined;
afterEach(async () => {
  await handle?.close();
  handle = undefined;
});

async function load(known: { cusip: string; issuer: string }[]) {
  handle = openDatabase(':memory:');
  await migrateToLatest(handle);
  const h = handle;
  const rows = [infoRow('037833aa1', 'APPLE INC', 1000), infoRow('594918104', 'MICROSOFT CORP', 2000)];
  await h.db.transaction().execute(async (trx) => {
    const securities = known.map((s) => ({ ...s, title_of_class: 'COM', ticker: null }));
    await insertRows(h, 'securities', securities, trx);
    await insertRows(h, 'filings_13f', [filing], trx);
    await insertInfoRows(h, rows, trx);
    await deriveHoldings(h, ['2025-Q3'], trx);
  });
  return h.db.selectFrom('securities').select(['cusip', 'issuer']).orderBy('cusip').execute();
}

describe('deriveHoldings and the security master', () => {
  it('adds the held CUSIPs it lacks, upper-cased, with the filed issuer', async () => {
    expect(await load([{ cusip: '594918104', issuer: 'Microsoft (master)' }])).toEqual([
      { cusip: '037833AA1', issuer: 'APPLE INC' },
      { cusip: '594918104', issuer: 'Microsoft (master)' },
    ]);
  });

  it('changes nothing when every held CUSIP is known', async () => {
    const known = [
      { cusip: '037833AA1', issuer: 'Apple (master)' },
      { cusip: '594918104', issuer: 'Microsoft (master)' },
    ];
    expect(await load(known)).toEqual(known);
  });

  it('after the master is replaced, gives back a row to each held CUSIP it lacks, named as filed', async () => {
    const known = [
      { cusip: '037833AA1', issuer: 'Apple (master)' },
      { cusip: '594918104', issuer: 'Microsoft (master)' },
    ];
    await load(known);
    const h = handle as DbHandle;
    await h.db.deleteFrom('securities').where('cusip', '=', '037833AA1').execute();
    await addHeldMissingSecurities(h, h.db, ['2025-Q3']);
    const rows = await h.db.selectFrom('securities').select(['cusip', 'issuer']).orderBy('cusip').execute();
    expect(rows).toEqual([
      { cusip: '037833AA1', issuer: 'APPLE INC' },
      { cusip: '594918104', issuer: 'Microsoft (master)' },
    ]);
    // Nothing missing: nothing changes.
    await addHeldMissingSecurities(h, h.db, ['2025-Q3']);
    expect(
      await h.db.selectFrom('securities').select(['cusip', 'issuer']).orderBy('cusip').execute(),
    ).toEqual(rows);
  });
});
