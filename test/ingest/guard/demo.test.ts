/**
 * The shrink rule does not apply while the served rows being replaced are the built-in demo
 * dataset: real data replaces synthetic data whatever their sizes. Once real rows are served, the
 * rule applies to the next load. (`regdata demo` builds both parts; each is built here directly.)
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildBankingDemoWith } from '../../../src/demo/banking/index.js';
import { buildHoldingsDemo } from '../../../src/demo/holdings/index.js';
import { DEFAULT_DEMO_SEED } from '../../../src/demo/index.js';
import { type Backend, testBackends } from '../../helpers/backends.js';
import { countPositions } from '../../helpers/positions.js';
import { FIXTURES } from '../helpers/upstream.js';
import { countRows, expectLoaded, expectRefused, useHarness } from './harness.js';
import { advisers, FILING_FLAGS, positions, writeAdvisers, writeInfoTable } from './sec-inputs.js';

const demo = { seed: DEFAULT_DEMO_SEED, scale: 'small' } as const;
/** The rule is about demo rows, not their number: a few hundred banks (all 4,044 failures) suffice. */
const BANKS = { active: 150, inactive: 30 };

describe.each(testBackends())('the guard over the demo dataset on $name', (backend: Backend) => {
  const harness = useHarness(backend);

  it('three real failures replace every demo failure; then a real cut is refused', {
    timeout: 180_000,
  }, async () => {
    await buildBankingDemoWith(harness().database.writer, demo, BANKS);
    const served = await countRows(harness().database, 'failures');
    expect(served).toBeGreaterThan(30);
    const real = await harness().ingest('fdic-failures', [join(FIXTURES, 'bankfind', 'failures-page1.json')]);
    expectLoaded(real);
    expect(real.summary).toMatchObject({ removed: served });
    expect(await countRows(harness().database, 'failures')).toBe(3);

    // Institutions too (4 real over the demo's), then one of them alone: 3 of 4 would go.
    expectLoaded(
      await harness().ingest('fdic-institutions', [join(FIXTURES, 'bankfind', 'institutions.json')]),
    );
    const dir = harness().inputDir('one-institution');
    const one = JSON.parse(readFileSync(join(FIXTURES, 'bankfind', 'institutions.json'), 'utf8'));
    one.data = one.data.slice(0, 1);
    writeFileSync(join(dir, 'one.json'), JSON.stringify(one));
    expectRefused(await harness().ingest('fdic-institutions', [join(dir, 'one.json')]), 'shrink', {
      table: 'institutions',
    });
  });

  it('a single 13F filing and a small adviser file replace the holdings demo', {
    timeout: 300_000,
  }, async () => {
    await buildHoldingsDemo(harness().database.writer, demo);
    const demoFilings = await countRows(harness().database, 'filings_13f');
    const demoAdvisers = await countRows(harness().database, 'advisers');
    expect(demoFilings).toBeGreaterThan(1000);
    expect(demoAdvisers).toBeGreaterThan(1000);

    const filing = await harness().ingest(
      'sec-13f-filing',
      writeInfoTable(harness().inputDir('filing'), positions(20)),
      {
        flags: FILING_FLAGS,
      },
    );
    expectLoaded(filing);
    expect(await countRows(harness().database, 'filings_13f')).toBe(1);
    expect(await countPositions(harness().database.writer.db)).toBe(20);

    const dir = harness().inputDir('advisers');
    const real = await harness().ingest('sec-advisers', writeAdvisers(dir, advisers(20)));
    expectLoaded(real);
    // Every demo adviser goes (a CRD the file shares with the demo counts as updated).
    expect(real.summary.removed + real.summary.updated).toBe(demoAdvisers);
    expect(await countRows(harness().database, 'advisers')).toBe(20);
    const cut = await harness().ingest('sec-advisers', writeAdvisers(dir, advisers(10)));
    expectRefused(cut, 'shrink', { table: 'advisers', count: 10, of: 20 });
  });
});
