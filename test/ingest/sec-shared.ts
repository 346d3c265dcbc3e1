/**
 * Locates `../shared/realdata` (relative to the repo root) for the SEC real-data tests. Absent →
 * the suites skip with a visible message; with REQUIRE_SHARED=1 (`.ci/run`) absence is a failure.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));

export const REALDATA = fileURLToPath(new URL('../shared/realdata/', `file://${repoRoot}`));

export function realdata(relative: string): string {
  return `${REALDATA}${relative}`;
}

/** True when the files are there; otherwise warns, or throws under REQUIRE_SHARED=1. */
export function sharedAvailable(files: readonly string[]): boolean {
  const missing = files.filter((file) => !existsSync(realdata(file)));
  if (missing.length === 0) return true;
  const message = `../shared/realdata missing (${missing.join(', ')}) at ${REALDATA}`;
  if (process.env.REQUIRE_SHARED === '1') throw new Error(`REQUIRE_SHARED=1 but ${message}`);
  console.warn(`\n⚠ SEC real-data tests skipped: ${message}\n`);
  return false;
}
