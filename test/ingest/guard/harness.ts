/**
 * The ingest guard's test harness: one database per backend, loads through the real CLI, snapshots
 * of everything a refused load must leave alone (served rows, dataset version, provenance), and the
 * assertions on a refusal's summary (issue 13, item 1).
 */
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, expect } from 'vitest';
import { datasetVersion } from '../../../src/db/dataset.js';
import type { Backend, TestDatabase } from '../../helpers/backends.js';
import { ingestJson } from '../helpers/cli.js';

export type Rule = 'rejected-rows' | 'shrink';

export interface IngestRun {
  readonly code: number | null;
  readonly stderr: string;
  // biome-ignore lint/suspicious/noExplicitAny: the summary JSON is checked field by field
  readonly summary: any;
}

export interface LoadOptions {
  /** Extra command-line flags (e.g. `--allow-shrink`). */
  readonly flags?: readonly string[];
  /** Extra environment (e.g. INGEST_MAX_REJECTED_PERCENT). */
  readonly env?: Record<string, string>;
}

export interface Harness {
  readonly database: TestDatabase;
  /** A fresh directory for this input (its files are the source's to name). */
  inputDir(name: string): string;
  /** `regdata ingest <source> --from <each input> [flags] --json`. */
  ingest(source: string, inputs: readonly string[], options?: LoadOptions): Promise<IngestRun>;
  /** Rows of `table` served now. */
  count(table: string): Promise<number>;
}

/** Opens a migrated database for the suite (beforeAll) and drops it after (afterAll). */
export function useHarness(backend: Backend): () => Harness {
  let harness: Harness | undefined;
  let dir = '';
  beforeAll(async () => {
    const database = await backend.create();
    dir = mkdtempSync(join(tmpdir(), 'regdata-guard-'));
    const env = { DATABASE_URL: database.url };
    harness = {
      database,
      inputDir(name) {
        const path = join(dir, name);
        rmSync(path, { recursive: true, force: true });
        mkdirSync(path, { recursive: true });
        return path;
      },
      async ingest(source, inputs, options = {}) {
        const from = inputs.flatMap((input) => ['--from', input]);
        return ingestJson([source, ...from, ...(options.flags ?? [])], { ...env, ...options.env });
      },
      count: (table) => countRows(database, table),
    };
  });
  afterAll(async () => {
    await harness?.database.drop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });
  return () => {
    if (!harness) throw new Error('harness used outside its suite');
    return harness;
  };
}

export async function countRows(database: TestDatabase, table: string): Promise<number> {
  const result = await sql<{ n: number | string }>`select count(*) as n from ${sql.table(table)}`.execute(
    database.writer.db,
  );
  return Number(result.rows[0]?.n ?? 0);
}

/** A table's rows as a count and a digest independent of row order. */
async function digest(database: TestDatabase, table: string): Promise<{ rows: number; sha256: string }> {
  const result = await sql<Record<string, unknown>>`select * from ${sql.table(table)}`.execute(
    database.writer.db,
  );
  const lines = result.rows.map((row) =>
    JSON.stringify(
      Object.keys(row)
        .sort()
        .map((key) => [key, row[key]]),
    ),
  );
  lines.sort();
  const hash = createHash('sha256');
  for (const line of lines) hash.update(`${line}\n`);
  return { rows: lines.length, sha256: hash.digest('hex') };
}

/** Everything a refused load must not touch: the tables' rows, the provenance rows, the version. */
export async function snapshot(database: TestDatabase, tables: readonly string[]) {
  const digests: Record<string, { rows: number; sha256: string }> = {};
  for (const table of [...tables, 'sources']) digests[table] = await digest(database, table);
  const sources = await database.writer.db.selectFrom('sources').selectAll().orderBy('source').execute();
  return { version: await datasetVersion(database.writer.db), sources, digests };
}

export function expectLoaded(run: IngestRun): void {
  expect(run.code, `${run.summary?.error ?? ''}\n${run.stderr}`).toBe(0);
  expect(run.summary.ok).toBe(true);
  expect(run.summary.refused).toBeUndefined();
}

/**
 * The refusal: exit 1, `ok: false`, the rule in `refused` and named in the message, its figures
 * consistent with the summary, and no dataset version (nothing was committed).
 */
export function expectRefused(
  run: IngestRun,
  rule: Rule,
  figures: { table?: string; count?: number; of?: number; limit_percent?: number } = {},
): void {
  expect(run.code, run.stderr).toBe(1);
  expect(run.summary.ok).toBe(false);
  expect(run.summary.dataset_version).toBeNull();
  const refused = run.summary.refused;
  expect(refused, `no summary.refused; error: ${run.summary.error}`).toMatchObject({
    rule,
    limit_percent: rule === 'shrink' ? 10 : 1,
    ...figures,
  });
  expect(run.summary.error).toMatch(rule === 'shrink' ? /shrink/i : /reject/i);
  expect(refused.percent).toBeCloseTo((100 * refused.count) / refused.of, 1);
  expect(refused.percent).toBeGreaterThan(refused.limit_percent);
  if (rule === 'rejected-rows') {
    expect(refused.count).toBe(run.summary.rejected);
    expect(refused.of).toBe(run.summary.read);
  } else {
    expect(refused.table).toEqual(expect.any(String));
  }
}

/** Indices of `k` of `n` items spread evenly (so a malformed share touches the whole input). */
export function spread(n: number, k: number): Set<number> {
  const picked = new Set<number>();
  for (let i = 0; i < n; i++) if (Math.floor(((i + 1) * k) / n) > Math.floor((i * k) / n)) picked.add(i);
  return picked;
}
