/**
 * `../shared/realdata` (relative to the repo root) for the banking real-data tests: absent → the
 * suites skip with a visible message; with REQUIRE_SHARED=1 (`.ci/run`) absence fails instead.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { REPO_ROOT } from './cli.js';

export const REALDATA = join(REPO_ROOT, '..', 'shared', 'realdata');

export const realdata = (relative: string) => join(REALDATA, relative);

export function sharedAvailable(files: readonly string[], what: string): boolean {
  const missing = files.filter((file) => !existsSync(realdata(file)));
  if (missing.length === 0) return true;
  const message = `../shared/realdata missing (${missing.join(', ')}) at ${REALDATA}`;
  if (process.env.REQUIRE_SHARED === '1') throw new Error(`REQUIRE_SHARED=1 but ${message}`);
  console.warn(`\n⚠ ${what} skipped: ${message}\n`);
  return false;
}

/** The file's rows as objects keyed by header (the test's own reading, independent of the ingest). */
export function readCsv(relative: string): Record<string, string>[] {
  return parse(readFileSync(realdata(relative)), { columns: true, bom: true }) as Record<string, string>[];
}

export function countBy<T>(rows: readonly T[], key: (row: T) => string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const row of rows) counts.set(key(row), (counts.get(key(row)) ?? 0) + 1);
  return counts;
}
