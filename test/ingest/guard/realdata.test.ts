/**
 * The two loads that motivated the guard (issue 13), replayed on the real BankFind files in
 * ../shared/realdata (skipped with a message when absent; REQUIRE_SHARED=1 fails instead):
 * an institutions file with 90 % of its CERTs malformed, and a failures download cut in half.
 * Both were loaded with exit 0 before; both are refused now, and the served rows stay.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type Backend, testBackends } from '../../helpers/backends.js';
import { realdata, sharedAvailable } from '../helpers/shared.js';
import { countRows, expectLoaded, expectRefused, snapshot, spread, useHarness } from './harness.js';

const INSTITUTIONS = 'fdic_institutions/fdic_institutions_active_2026-01.csv';
const FAILURES = 'fdic_failures/fdic_failures_bankfind_1934_2026.csv';
const available = sharedAvailable([INSTITUTIONS, FAILURES], 'ingest guard real-data tests');

/** The file's header and record lines (neither file has a line break inside a field). */
function lines(relative: string): { header: string; rows: string[] } {
  const [header, ...rows] = readFileSync(realdata(relative), 'utf8').split(/\r?\n/);
  return { header: header!, rows: rows.filter((row) => row !== '') };
}

describe.skipIf(!available).each(testBackends())(
  'ingest guard on the real files, $name',
  (backend: Backend) => {
    const harness = useHarness(backend);
    const write = (name: string, header: string, rows: readonly string[]) => {
      const path = join(harness().inputDir(name), `${name}.csv`);
      writeFileSync(path, `${[header, ...rows].join('\n')}\n`);
      return path;
    };

    it('institutions with 90 % of CERTs malformed: refused, 4,339 institutions still served', {
      timeout: 120_000,
    }, async () => {
      const { header, rows } = lines(INSTITUTIONS);
      expect(rows).toHaveLength(4339);
      expectLoaded(await harness().ingest('fdic-institutions', [realdata(INSTITUTIONS)]));
      const before = await snapshot(harness().database, ['institutions']);
      const spoil = spread(rows.length, 3905);
      const spoiled = rows.map((row, i) => (spoil.has(i) ? row.replace(/^\d+/, '12x4') : row));
      const run = await harness().ingest('fdic-institutions', [write('institutions', header, spoiled)]);
      expectRefused(run, 'rejected-rows', { count: 3905, of: 4339 });
      expect(await snapshot(harness().database, ['institutions'])).toEqual(before);
      expect(await countRows(harness().database, 'institutions')).toBe(4339);
    });

    it('failures cut to 2,056 of 4,114: refused as a shrink; --allow-shrink takes it', {
      timeout: 120_000,
    }, async () => {
      const { header, rows } = lines(FAILURES);
      expect(rows).toHaveLength(4114);
      expectLoaded(await harness().ingest('fdic-failures', [realdata(FAILURES)]));
      const before = await snapshot(harness().database, ['failures']);
      const half = write('failures', header, rows.slice(0, 2056));
      const run = await harness().ingest('fdic-failures', [half]);
      expectRefused(run, 'shrink', { table: 'failures', count: 4114 - 2056, of: 4114 });
      expect(await snapshot(harness().database, ['failures'])).toEqual(before);
      expectLoaded(await harness().ingest('fdic-failures', [half], { flags: ['--allow-shrink'] }));
      expect(await countRows(harness().database, 'failures')).toBe(2056);
    });
  },
);
