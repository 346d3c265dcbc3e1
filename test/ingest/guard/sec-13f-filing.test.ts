/**
 * The ingest guard on `sec-13f-filing`, read from a bare information table of 200 positions in the
 * layout of SEC's official sample (sec-inputs.ts) and the filing's identity on the command line. A
 * load replaces the filing it holds, all of its rows. Malformed key: CUSIP `12x4`.
 */
import { describe, expect, it } from 'vitest';
import { type Backend, testBackends } from '../../helpers/backends.js';
import { countPositions } from '../../helpers/positions.js';
import { guardCases, HOLDINGS_TABLES, loader, RECORDS, type SourceSpec } from './cases.js';
import { expectLoaded, expectRefused, snapshot, useHarness } from './harness.js';
import { FILING_FLAGS, type Position, positions, writeInfoTable } from './sec-inputs.js';

const filing: SourceSpec<Position> = {
  source: 'sec-13f-filing',
  tables: HOLDINGS_TABLES,
  shrinkTable: 'info_tables_13f',
  countRecords: (database) => countPositions(database.writer.db),
  records: positions,
  malform: (p) => ({ ...p, cusip: '12x4' }),
  write: writeInfoTable,
  flags: FILING_FLAGS,
  // The filing is one packed record; the cut is checked on its positions below.
  shrinks: false,
};

describe.each(testBackends())('ingest guard, sec-13f-filing, on $name', (backend: Backend) => {
  const harness = useHarness(backend);

  guardCases(filing, harness);

  it('the filing re-delivered with half its positions is refused; --allow-shrink accepts it', async () => {
    // Its rows are stored packed, one record per filing: the record is "updated", not removed, yet
    // half the filing's positions would go. A cut-short download must not pass unnoticed.
    const load = loader(filing, harness);
    expectLoaded(await load(positions(RECORDS)));
    const before = await snapshot(harness().database, HOLDINGS_TABLES);
    const half = positions(RECORDS / 2);
    expectRefused(await load(half), 'shrink');
    expect(await snapshot(harness().database, HOLDINGS_TABLES)).toEqual(before);
    expectLoaded(await load(half, { flags: ['--allow-shrink'] }));
    expect(await countPositions(harness().database.writer.db)).toBe(RECORDS / 2);
  });

  it('a cut of 8 % of the positions is accepted', async () => {
    const load = loader(filing, harness);
    expectLoaded(await load(positions(RECORDS)));
    expectLoaded(await load(positions(184)));
    expect(await countPositions(harness().database.writer.db)).toBe(184);
  });
});
