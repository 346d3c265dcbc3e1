/**
 * The ingest guard on the three SEC list sources: `sec-advisers` (the monthly Form ADV CSV, see
 * sec-inputs.ts; a load replaces every adviser), `sec-securities` (the Official 13(f) List, lines as
 * in test/ingest/sec-network.test.ts; a load upserts the CUSIPs it lists) and `sec-registrants`
 * (company_tickers_exchange.json; a load replaces every registrant). Malformed keys: CRD `12x4`; a
 * CUSIP whose check digit is wrong; CIK `12x4`. The identity graph each of them rebuilds is checked
 * unchanged by a refused load too.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cusipCheckDigit } from '../../../src/ingest/sources/sec/official-list.js';
import { type Backend, testBackends } from '../../helpers/backends.js';
import { guardCases, loader, RECORDS, type SourceSpec } from './cases.js';
import { countRows, expectLoaded, useHarness } from './harness.js';
import { type Adviser, advisers, writeAdvisers } from './sec-inputs.js';

const GRAPH = ['entity_links', 'entity_link_candidates'];

const adviserSpec: SourceSpec<Adviser> = {
  source: 'sec-advisers',
  tables: ['advisers', ...GRAPH],
  shrinkTable: 'advisers',
  records: advisers,
  malform: (a) => ({ ...a, crd: '12x4' }),
  write: writeAdvisers,
};

interface Listed {
  readonly cusip: string;
  readonly issuer: string;
}

function writeList(dir: string, entries: readonly Listed[]): string[] {
  const path = join(dir, '13flist2025q2.txt');
  const lines = entries.map((e) => `${e.cusip} ${e.issuer.padEnd(30)}COM`);
  writeFileSync(path, `${lines.join('\r\n')}\r\n`);
  return [path];
}

function listed(n: number): Listed[] {
  return Array.from({ length: n }, (_, i) => {
    const first8 = `G${String(i).padStart(7, '0')}`;
    return { cusip: `${first8}${cusipCheckDigit(first8)}`, issuer: `GUARD ISSUER ${i}` };
  });
}

const securities: SourceSpec<Listed> = {
  source: 'sec-securities',
  tables: ['securities', ...GRAPH],
  shrinkTable: 'securities',
  records: listed,
  malform: (e) => ({ ...e, cusip: `${e.cusip.slice(0, 8)}${(Number(e.cusip[8]) + 1) % 10}` }),
  write: writeList,
  shrinks: false,
};

interface Registrant {
  readonly cik: string | number;
  readonly name: string;
  readonly ticker: string;
}

const registrantsSpec: SourceSpec<Registrant> = {
  source: 'sec-registrants',
  tables: ['sec_registrants', ...GRAPH],
  shrinkTable: 'sec_registrants',
  records: (n) =>
    Array.from({ length: n }, (_, i) => ({
      cik: 7000 + i,
      name: `Guard Registrant ${i} Inc`,
      ticker: `GRD${i}`,
    })),
  malform: (r) => ({ ...r, cik: '12x4' }),
  write: (dir, records) => {
    const path = join(dir, 'company_tickers_exchange.json');
    const data = records.map((r) => [r.cik, r.name, r.ticker, 'Nasdaq']);
    writeFileSync(path, JSON.stringify({ fields: ['cik', 'name', 'ticker', 'exchange'], data }));
    return [path];
  },
};

describe.each(testBackends())('ingest guard, SEC lists, on $name', (backend: Backend) => {
  const harness = useHarness(backend);

  describe('sec-advisers', () => guardCases(adviserSpec, harness));
  describe('sec-registrants', () => guardCases(registrantsSpec, harness));

  describe('sec-securities', () => {
    guardCases(securities, harness);

    it('half the list removes nothing: the scope of a load is exactly the CUSIPs it lists', async () => {
      // By construction: securities are upserted by CUSIP (those known only from filings stay), so
      // a shorter list has nothing in its scope to remove and the shrink rule can never fire.
      const load = loader(securities, harness);
      expectLoaded(await load(listed(RECORDS)));
      const half = await load(listed(RECORDS / 2));
      expectLoaded(half);
      expect(half.summary).toMatchObject({ removed: 0, updated: RECORDS / 2, inserted: 0 });
      expect(await countRows(harness().database, 'securities')).toBe(RECORDS);
    });
  });
});
