/**
 * The ingest guard on `fred`, read from fredgraph.csv files in the current header generation
 * (test/fixtures/upstream/fred/fredgraph-T10Y2Y-current.csv). A load replaces the series it holds,
 * all of their observations: cutting a series' observations is a shrink. Malformed key: the date.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type Backend, testBackends } from '../../helpers/backends.js';
import { fixture } from '../helpers/upstream.js';
import { guardCases, loader, RECORDS, type SourceSpec } from './cases.js';
import { countRows, expectLoaded, useHarness } from './harness.js';

interface Observation {
  readonly date: string;
  readonly value: string;
}

const [HEADER] = fixture('fred/fredgraph-T10Y2Y-current.csv').toString().split('\n');

function writeCsv(dir: string, observations: readonly Observation[], header = HEADER): string[] {
  const path = join(dir, 'fredgraph.csv');
  writeFileSync(path, `${[header, ...observations.map((o) => `${o.date},${o.value}`)].join('\n')}\n`);
  return [path];
}

/** Daily observations from 2025-01-01, no gaps (the test's own calendar, not FRED's). */
function observations(n: number): Observation[] {
  return Array.from({ length: n }, (_, i) => ({
    date: new Date(Date.UTC(2025, 0, 1 + i)).toISOString().slice(0, 10),
    value: (0.5 + (i % 37) / 100).toFixed(2),
  }));
}

const fred: SourceSpec<Observation> = {
  source: 'fred',
  tables: ['macro_series', 'macro_observations'],
  shrinkTable: 'macro_observations',
  records: observations,
  malform: (o) => ({ ...o, date: '12x4' }),
  write: writeCsv,
};

describe.each(testBackends())('ingest guard, fred, on $name', (backend: Backend) => {
  const harness = useHarness(backend);

  guardCases(fred, harness);

  it('another series is another scope: loading it alone removes nothing', async () => {
    const load = loader(fred, harness);
    expectLoaded(await load(observations(RECORDS)));
    const dir = harness().inputDir('fred-dgs10');
    const other = await harness().ingest('fred', writeCsv(dir, observations(5), 'observation_date,DGS10'));
    expectLoaded(other);
    expect(other.summary).toMatchObject({ removed: 0 });
    expect(await countRows(harness().database, 'macro_observations')).toBe(RECORDS + 5);
    expect(await countRows(harness().database, 'macro_series')).toBe(2);
  });
});
