/**
 * Loading a real source over the built-in demo dataset: the synthetic rows of that source go
 * entirely (never mixed with real ones) and its demo label goes away; other sources stay demo.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildBankingDemoWith } from '../../src/demo/banking/index.js';
import { DEFAULT_DEMO_SEED } from '../../src/demo/index.js';
import { type Backend, type TestDatabase, testBackends } from '../helpers/backends.js';
import { type ApiUnderTest, openApi } from './helpers/api.js';
import { ingestJson } from './helpers/cli.js';
import { FIXTURES } from './helpers/upstream.js';

describe.each(testBackends())('real loads over the demo dataset on $name', (backend: Backend) => {
  let database: TestDatabase;
  let api: ApiUnderTest;
  let env: Record<string, string>;

  beforeAll(async () => {
    database = await backend.create();
    env = { DATABASE_URL: database.url };
    // The banking part of `regdata demo` (the holdings part is irrelevant here), with fewer banks:
    // what is replaced is every demo row, whatever their number.
    await buildBankingDemoWith(
      database.writer,
      { seed: DEFAULT_DEMO_SEED, scale: 'small' },
      { active: 150, inactive: 30 },
    );
    api = await openApi(database);
  }, 180_000);
  afterAll(async () => {
    await api?.close();
    await database?.drop();
  });

  const sourceMeta = async (name: string) =>
    (await api.get('/api/v1/meta')).body.sources.find((s: { source: string }) => s.source === name);

  it('replaces the demo failures and financials entirely and drops their demo label', {
    timeout: 120_000,
  }, async () => {
    expect((await sourceMeta('fdic-failures')).is_demo).toBe(true);
    const demoFailures = (await api.get('/api/v1/failures')).body.total;
    expect(demoFailures).toBeGreaterThan(5);

    const failures = await ingestJson(
      ['fdic-failures', '--from', join(FIXTURES, 'bankfind', 'failures-page1.json')],
      env,
    );
    expect(failures.summary).toMatchObject({ ok: true, inserted: 3, removed: demoFailures });
    expect((await api.get('/api/v1/failures')).body.total).toBe(3);
    expect(await sourceMeta('fdic-failures')).toMatchObject({ is_demo: false, rows: 3 });
    expect((await sourceMeta('fred')).is_demo).toBe(true);

    const page = join(FIXTURES, 'bankfind', 'financials-20231231.json');
    const financials = await ingestJson(['fdic-financials', '--from', page], env);
    expect(financials.summary.ok).toBe(true);
    const left = await database.writer.db
      .selectFrom('financials')
      .select(['source', (eb) => eb.fn.countAll<number>().as('n')])
      .groupBy('source')
      .execute();
    expect(left.map((r) => [r.source, Number(r.n)])).toEqual([['fdic', 3]]);
    expect((await sourceMeta('fdic-financials')).is_demo).toBe(false);
  });
});
