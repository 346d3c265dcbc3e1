/**
 * linked() and registrantRows() order their rows in JavaScript (SQLite's sorter costs more than the
 * rows): the order must be the one the database gives for the documented ORDER BY, which the bulk
 * export still uses (current links first, then the latest valid_to, the most confident, the id; a
 * registrant's tickers by SEC's ordinal). Checked on both backends on links that tie at every level.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EntityLinksTable } from '../../src/db/tables.js';
import { linked, registrantRows } from '../../src/identity/graph.queries.js';
import { type TestDatabase, testBackends } from '../helpers/backends.js';

const FROM = 'cert:1001';

function link(
  to: string,
  validTo: string | null,
  confidence: number,
  relation = 'issuer_of',
): EntityLinksTable {
  return {
    from_id: FROM,
    from_kind: 'bank',
    from_name: 'FIRST BANK',
    relation,
    to_id: to,
    to_kind: 'security',
    to_name: `NAME ${to}`,
    source: 'test',
    method: confidence === 1 ? 'identifier' : 'name_match',
    confidence,
    valid_from: null,
    valid_to: validTo,
  };
}

// Every level ties somewhere: two current links of equal confidence, two ended the same day, ids
// that differ only in a late digit, and a link of another relation that must not appear.
const LINKS = [
  link('cusip:000000019', '2024-06-30', 0.92),
  link('cusip:000000011', null, 0.95),
  link('cusip:000000012', null, 1),
  link('cusip:000000010', null, 1),
  link('cusip:000000018', '2024-06-30', 0.92),
  link('cusip:000000017', '2025-03-31', 0.85),
  link('cusip:000000016', '2024-06-30', 1),
  link('cusip:000000015', '2023-12-31', 1),
  link('cik:0000000001', null, 1, 'registered_as'),
];

const REGISTRANTS = [
  { cik: '0000000042', ticker: 'ZZB', name: 'ANSWER CORP', exchange: 'NYSE', ordinal: 2 },
  { cik: '0000000042', ticker: 'AAA', name: 'ANSWER CORP', exchange: 'NYSE', ordinal: 1 },
  { cik: '0000000042', ticker: 'MMM', name: 'ANSWER CORP', exchange: null, ordinal: 0 },
  { cik: '0000000043', ticker: 'OTH', name: 'OTHER CORP', exchange: 'Nasdaq', ordinal: 0 },
];

describe.each(testBackends())('identity link order on $name', (backend) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await backend.create();
    await database.writer.db.insertInto('entity_links').values(LINKS).execute();
    await database.writer.db.insertInto('sec_registrants').values(REGISTRANTS).execute();
  });
  afterAll(() => database?.drop());

  it('linked() gives the database order of the documented ORDER BY', async () => {
    const db = database.writer.db;
    const expected = await db
      .selectFrom('entity_links')
      .select(['to_id', 'to_name', 'method'])
      .where('from_id', '=', FROM)
      .where('relation', '=', 'issuer_of')
      .orderBy('valid_to', (ob) => ob.desc().nullsFirst())
      .orderBy('confidence', 'desc')
      .orderBy('to_id')
      .execute();
    const got = await linked(db, FROM, 'issuer_of');
    expect(got.map(({ to_id, to_name, method }) => ({ to_id, to_name, method }))).toEqual(expected);
    expect(got.map((row) => row.to_id)).toEqual([
      'cusip:000000010',
      'cusip:000000012',
      'cusip:000000011',
      'cusip:000000017',
      'cusip:000000016',
      'cusip:000000018',
      'cusip:000000019',
      'cusip:000000015',
    ]);
    expect(await linked(db, FROM, 'files_13f_as')).toEqual([]);
  });

  it("registrantRows() lists a registrant's tickers in SEC's order", async () => {
    const db = database.writer.db;
    const expected = await db
      .selectFrom('sec_registrants')
      .select(['cik', 'name', 'ticker', 'exchange'])
      .where('cik', '=', '0000000042')
      .orderBy('ordinal')
      .execute();
    const got = await registrantRows(db, '0000000042');
    expect(got.map(({ cik, name, ticker, exchange }) => ({ cik, name, ticker, exchange }))).toEqual(expected);
    expect(got.map((row) => row.ticker)).toEqual(['MMM', 'AAA', 'ZZB']);
  });
});
