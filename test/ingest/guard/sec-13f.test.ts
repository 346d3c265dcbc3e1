/**
 * The ingest guard on `sec-13f`, read from data set ZIPs in SEC's layout (bench/sec-13f-dataset.ts,
 * as test/ingest/sec-13f.test.ts builds them): 200 filings of 5 positions each. A load replaces the
 * filings it holds, and all information-table records of those filings. Malformed key: CUSIP `12x4`.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type DatasetFiling, writeFilingsZip } from '../../../bench/sec-13f-dataset.js';
import { type Backend, testBackends } from '../../helpers/backends.js';
import { guardCases, HOLDINGS_TABLES, loader, RECORDS, type SourceSpec } from './cases.js';
import { countRows, expectLoaded, useHarness } from './harness.js';

const HELD = ['037833100', '594918104', '67066G104', '02079K107', '00724F101'];

function filings(n: number): DatasetFiling[] {
  return Array.from({ length: n }, (_, i) => ({
    accession: `0000${String(900_000 + i)}-25-000001`,
    cik: String(900_000 + i),
    formType: '13F-HR',
    filingDate: '2025-05-12',
    period: '2025-03-31',
    managerName: `GUARD CAPITAL ${i} & "PARTNERS"`,
    summary: { entryTotal: HELD.length, valueTotal: 5 * (1000 + i) },
    rows: HELD.map((cusip, k) => ({ cusip, issuer: `ISSUER ${k}`, value: 1000 + i, shares: 10 + k })),
  }));
}

async function writeDataset(dir: string, list: readonly DatasetFiling[]): Promise<string[]> {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, '2025q2_form13f.zip');
  await writeFilingsZip(path, list);
  return [path];
}

const dataset: SourceSpec<DatasetFiling> = {
  source: 'sec-13f',
  tables: HOLDINGS_TABLES,
  shrinkTable: 'info_tables_13f',
  records: filings,
  malform: (filing) => ({ ...filing, rows: filing.rows.map((row) => ({ ...row, cusip: '12x4' })) }),
  write: writeDataset,
  // An INFOTABLE.tsv cut short: every filing is still there, the later ones without their rows.
  cut: (list, keep) => list.map((filing, i) => (i < keep ? filing : { ...filing, rows: [] })),
  rowsPerRecord: HELD.length,
  shrinkWeighsRows: true,
};

describe.each(testBackends())('ingest guard, sec-13f, on $name', (backend: Backend) => {
  const harness = useHarness(backend);

  guardCases(dataset, harness);

  it('a data set holding half the filings removes none: other filings are outside its scope', async () => {
    // By construction: a load replaces only the accession numbers it delivers, so the shrink rule
    // has nothing to count; the filings it lacks stay served, as an amendment's original does.
    const load = loader(dataset, harness);
    expectLoaded(await load(filings(RECORDS)));
    const half = await load(filings(RECORDS).slice(0, RECORDS / 2));
    expectLoaded(half);
    expect(half.summary).toMatchObject({ removed: 0, inserted: 0 });
    expect(await countRows(harness().database, 'filings_13f')).toBe(RECORDS);
    expect(await countRows(harness().database, 'info_tables_13f')).toBe(RECORDS);
  });
});
