/**
 * The human closing summary of a refused load (without --json): it says the load failed, which
 * rule fired (`  refused:   <rule> rule: …`), and the process exits 1.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type Backend, testBackends } from '../../helpers/backends.js';
import { runCli } from '../helpers/cli.js';
import { expectLoaded, useHarness } from './harness.js';

/** A BankFind institutions page: CERTs 100…, the first `bad` of them `12x4`. */
function page(dir: string, count: number, bad = 0): string {
  const data = Array.from({ length: count }, (_, i) => ({
    data: { CERT: i < bad ? '12x4' : 100 + i, NAME: `Summary Bank ${i}`, STALP: 'WI', ACTIVE: 1 },
  }));
  const path = join(dir, `page-${count}-${bad}.json`);
  writeFileSync(path, JSON.stringify({ meta: { total: count }, data }));
  return path;
}

describe.each(testBackends())('refused-load summary on $name', (backend: Backend) => {
  const harness = useHarness(backend);
  const human = (file: string) =>
    runCli(['ingest', 'fdic-institutions', '--from', file, '--progress', 'none'], {
      DATABASE_URL: harness().database.url,
    });

  it('names the rule that fired, for each rule', async () => {
    const dir = harness().inputDir('summary');
    expectLoaded(await harness().ingest('fdic-institutions', [page(dir, 100)]));

    const rejected = await human(page(dir, 100, 50));
    expect(rejected.code).toBe(1);
    expect(rejected.stdout).toMatch(/fdic-institutions: FAILED/);
    expect(rejected.stdout).toMatch(/^ {2}refused: {3}rejected-rows rule: /m);

    const shrink = await human(page(dir, 50));
    expect(shrink.code).toBe(1);
    expect(shrink.stdout).toMatch(/^ {2}refused: {3}shrink rule: .*institutions/m);
    expect(shrink.stdout).toMatch(/--allow-shrink/);
  });
});
