/**
 * The ingest guard on the three BankFind sources, read from BankFind JSON pages built from the
 * recorded ones (test/fixtures/upstream/bankfind): `fdic-institutions` and `fdic-failures` replace
 * their whole table, `fdic-financials` the report dates it holds. Malformed key: CERT `12x4`.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type Backend, testBackends } from '../../helpers/backends.js';
import { fixture } from '../helpers/upstream.js';
import { guardCases, loader, RECORDS, type SourceSpec } from './cases.js';
import { countRows, expectLoaded, expectRefused, snapshot, useHarness } from './harness.js';

type BankFindRecord = Record<string, unknown>;

/** The `data` of the n-th record of a recorded BankFind page. */
function template(page: string, n: number): BankFindRecord {
  return JSON.parse(fixture(`bankfind/${page}`).toString()).data[n].data;
}

function writePage(dir: string, records: readonly BankFindRecord[]): string[] {
  const path = join(dir, 'page.json');
  const page = { meta: { total: records.length }, data: records.map((data) => ({ data, score: 0 })) };
  writeFileSync(path, JSON.stringify(page));
  return [path];
}

const malformCert = (record: BankFindRecord) => ({ ...record, CERT: '12x4' });

const institutions: SourceSpec<BankFindRecord> = {
  source: 'fdic-institutions',
  tables: ['institutions', 'financial_aggregates', 'entity_links', 'entity_link_candidates'],
  shrinkTable: 'institutions',
  records: (n) => {
    const jpm = template('institutions.json', 2);
    return Array.from({ length: n }, (_, i) => ({
      ...jpm,
      CERT: 10_000 + i,
      ID: String(10_000 + i),
      NAME: `Guard Bank ${i} & "Trust"`,
      FED_RSSD: String(900_000 + i),
    }));
  },
  malform: malformCert,
  write: writePage,
};

const failures: SourceSpec<BankFindRecord> = {
  source: 'fdic-failures',
  tables: ['failures'],
  shrinkTable: 'failures',
  records: (n) => {
    const svb = template('failures-page1.json', 1);
    return Array.from({ length: n }, (_, i) => ({
      ...svb,
      CERT: 20_000 + i,
      NAME: `FAILED BANK ${i}`,
      FAILDATE: `${1 + (i % 12)}/${1 + (i % 28)}/${1990 + (i % 30)}`,
    }));
  },
  malform: malformCert,
  write: writePage,
};

const financials: SourceSpec<BankFindRecord> = {
  source: 'fdic-financials',
  tables: ['financials', 'financial_aggregates', 'entity_links', 'entity_link_candidates'],
  shrinkTable: 'financials',
  records: (n) => {
    const jpm = template('financials-20241231.json', 0);
    return Array.from({ length: n }, (_, i) => ({
      ...jpm,
      CERT: 10_000 + i,
      ID: `${10_000 + i}_20241231`,
      ASSET: 1000 + i,
    }));
  },
  malform: malformCert,
  write: writePage,
};

describe.each(testBackends())('ingest guard, BankFind sources, on $name', (backend: Backend) => {
  const harness = useHarness(backend);

  describe.each([institutions, failures, financials])('$source', (spec) => {
    guardCases(spec, harness);
  });

  describe('the limits are inclusive and are settings', () => {
    const load = loader(institutions, harness);
    const all = institutions.records(RECORDS);

    it('exactly 1 % rejected and exactly 10 % removed are accepted', async () => {
      expectLoaded(await load(all));
      const twoBad = all.map((r, i) => (i === 7 || i === 150 ? malformCert(r) : r));
      const run = await load(twoBad);
      expectLoaded(run);
      expect(run.summary).toMatchObject({ read: RECORDS, rejected: 2, removed: 2 });
      expectLoaded(await load(all));
      const tenth = await load(all.slice(0, RECORDS - 20));
      expectLoaded(tenth);
      expect(tenth.summary.removed).toBe(20);
    });

    it('INGEST_MAX_SHRINK_PERCENT raises the shrink limit; the refusal reports the setting', async () => {
      expectLoaded(await load(all));
      const half = all.slice(0, RECORDS / 2);
      const refused = await load(half, { env: { INGEST_MAX_SHRINK_PERCENT: '49.5' } });
      expect(refused.code).toBe(1);
      expect(refused.summary.refused).toMatchObject({ rule: 'shrink', limit_percent: 49.5, percent: 50 });
      const accepted = await load(half, { env: { INGEST_MAX_SHRINK_PERCENT: '50' } });
      expectLoaded(accepted);
      expect(await countRows(harness().database, 'institutions')).toBe(RECORDS / 2);
    });

    it('a lowered INGEST_MAX_REJECTED_PERCENT refuses what the default accepts', async () => {
      expectLoaded(await load(all));
      const oneBad = all.map((r, i) => (i === 42 ? malformCert(r) : r));
      const run = await load(oneBad, { env: { INGEST_MAX_REJECTED_PERCENT: '0.25' } });
      expect(run.code).toBe(1);
      expect(run.summary.refused).toMatchObject({ rule: 'rejected-rows', count: 1, of: RECORDS });
      expect(run.summary.refused.limit_percent).toBe(0.25);
    });
  });

  describe('fdic-financials: the scope is the report dates a load holds', () => {
    const load = loader(financials, harness);

    it('another report date removes nothing; half of a served date is a shrink', async () => {
      const q4 = financials.records(RECORDS);
      expectLoaded(await load(q4));
      const q3 = q4.slice(0, 10).map((r) => ({ ...r, REPDTE: '20240930', ID: `${r.CERT}_20240930` }));
      const other = await load(q3);
      expectLoaded(other);
      expect(other.summary).toMatchObject({ inserted: 10, removed: 0 });
      expect(await countRows(harness().database, 'financials')).toBe(RECORDS + 10);

      const before = await snapshot(harness().database, ['financials']);
      // Both dates in one load: 2024-09-30 complete, 2024-12-31 cut in half.
      const mixed = await load([...q3, ...q4.slice(0, RECORDS / 2)]);
      expectRefused(mixed, 'shrink', { table: 'financials', count: RECORDS / 2, of: RECORDS + 10 });
      expect(await snapshot(harness().database, ['financials'])).toEqual(before);
    });
  });
});
