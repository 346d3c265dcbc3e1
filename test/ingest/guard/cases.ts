/**
 * The guard cases every source must pass, written once: a source describes how to build its input
 * from records and how to spoil a record's key, and gets the rejected-rows and shrink tests.
 */
import { expect, it } from 'vitest';
import type { TestDatabase } from '../../helpers/backends.js';
import {
  countRows,
  expectLoaded,
  expectRefused,
  type Harness,
  type IngestRun,
  type LoadOptions,
  snapshot,
  spread,
} from './harness.js';

/** Records in a good input: 1 % is 2 records, 10 % is 20 (the figures below are of 200). */
export const RECORDS = 200;

export interface SourceSpec<R> {
  readonly source: string;
  /** Tables (and derived tables) whose rows a refused load must leave exactly as they were. */
  readonly tables: readonly string[];
  /** The table the shrink rule guards for this source, and whose rows are `RECORDS` when full. */
  readonly shrinkTable: string;
  /** The source's records as stored, when not rows of `shrinkTable` (positions stored packed). */
  countRecords?(database: TestDatabase): Promise<number>;
  /** `n` good records, the same ones on every call. */
  records(n: number): R[];
  /** The record with its key field malformed (e.g. CERT `12x4`). */
  malform(record: R): R;
  /** Writes the input into `dir`; returns the `--from` locations. */
  write(dir: string, records: readonly R[]): Promise<string[]> | string[];
  /** The input cut to `keep` records of the same scope (default: the first `keep`). */
  cut?(records: readonly R[], keep: number): R[];
  /** Flags every load of this source needs (e.g. a bare filing's identity). */
  readonly flags?: readonly string[];
  /** Rejected rows per malformed record (default 1). */
  readonly rowsPerRecord?: number;
  /** False where the generic cut is no shrink by construction; the source's own test says why. */
  readonly shrinks?: boolean;
  /** The shrink table stores packed records: the guard weighs them by the upstream rows they hold. */
  readonly shrinkWeighsRows?: boolean;
}

/** The 13F tables: raw filings and rows, and everything derived from them in the same swap. */
// biome-ignore format: the list reads best as a block
export const HOLDINGS_TABLES = ['filings_13f', 'info_tables_13f', 'applied_filings_13f', 'security_positions', 'managers',
  'manager_quarters', 'securities', 'security_quarters', 'holdings_quarters', 'smart_money', 'smart_money_summary',
  'manager_changes', 'changes_by_manager', 'security_changes', 'holders_by_security', 'security_splits', 'split_spans',
  'security_latest', 'filing_progress', 'filing_days', 'crowded_days', 'manager_portfolios', 'entity_links', 'entity_link_candidates'];

export function loader<R>(spec: SourceSpec<R>, harness: () => Harness) {
  let inputs = 0;
  return async (records: readonly R[], options: LoadOptions = {}): Promise<IngestRun> => {
    const dir = harness().inputDir(`${spec.source}-${++inputs}`);
    const from = await spec.write(dir, records);
    const flags = [...(spec.flags ?? []), ...(options.flags ?? [])];
    return harness().ingest(spec.source, from, { ...options, flags });
  };
}

function withMalformed<R>(spec: SourceSpec<R>, bad: number): R[] {
  const spoil = spread(RECORDS, bad);
  return spec.records(RECORDS).map((record, i) => (spoil.has(i) ? spec.malform(record) : record));
}

/**
 * Both rules on one source. The cases run in order and share the served state: `ensureGood` loads
 * the good input only when the previous case left something else served (a CLI run is ~2 s).
 */
export function guardCases<R>(spec: SourceSpec<R>, harness: () => Harness): void {
  const run = loader(spec, harness);
  const perRecord = spec.rowsPerRecord ?? 1;
  let good = false;
  const load = async (records: readonly R[], options?: LoadOptions) => {
    const result = await run(records, options);
    if (result.code === 0) good = false;
    return result;
  };
  const ensureGood = async () => {
    if (good) return;
    expectLoaded(await run(spec.records(RECORDS)));
    good = true;
  };
  const unchanged = async (refusal: () => Promise<void>) => {
    await ensureGood();
    const before = await snapshot(harness().database, spec.tables);
    await refusal();
    expect(await snapshot(harness().database, spec.tables)).toEqual(before);
  };
  const cut = (keep: number) =>
    spec.cut ? spec.cut(spec.records(RECORDS), keep) : spec.records(RECORDS).slice(0, keep);

  it('refuses a load whose keys are 90 % malformed; rows, version and provenance unchanged', async () => {
    await unchanged(async () => {
      const result = await load(withMalformed(spec, 180));
      expectRefused(result, 'rejected-rows');
      expect(result.summary.rejected).toBe(180 * perRecord);
    });
  });

  it('a parser that rejects every row cannot empty the tables', async () => {
    await unchanged(async () => expectRefused(await load(withMalformed(spec, RECORDS)), 'rejected-rows'));
    const count = spec.countRecords ?? ((database) => countRows(database, spec.shrinkTable));
    expect(await count(harness().database)).toBe(RECORDS);
  });

  it('2 % malformed: refused at the default 1 %, accepted with INGEST_MAX_REJECTED_PERCENT=2.5', async () => {
    const input = withMalformed(spec, 4);
    await unchanged(async () => expectRefused(await load(input), 'rejected-rows'));
    const result = await load(input, { env: { INGEST_MAX_REJECTED_PERCENT: '2.5' } });
    expectLoaded(result);
    expect(result.summary.rejected).toBe(4 * perRecord);
  });

  if (spec.shrinks === false) return;

  it('refuses an input cut in half, changing nothing; --allow-shrink accepts the cut', async () => {
    const weight = spec.shrinkWeighsRows ? perRecord : 1;
    const half = cut(RECORDS / 2);
    await unchanged(async () =>
      expectRefused(await load(half), 'shrink', {
        table: spec.shrinkTable,
        count: (RECORDS / 2) * weight,
        of: RECORDS * weight,
      }),
    );
    const allowed = await load(half, { flags: ['--allow-shrink'] });
    expectLoaded(allowed);
    const counts = allowed.summary.tables.find((t: { table: string }) => t.table === spec.shrinkTable);
    expect(counts.removed).toBe(RECORDS / 2);
    expect(await countRows(harness().database, spec.shrinkTable)).toBe(RECORDS / 2);
  });

  it('a cut of 8 % is accepted without --allow-shrink', async () => {
    await ensureGood();
    const small = await load(cut(184));
    expectLoaded(small);
    const counts = small.summary.tables.find((t: { table: string }) => t.table === spec.shrinkTable);
    expect(counts.removed).toBe(16);
    expect(await countRows(harness().database, spec.shrinkTable)).toBe(184);
  });
}
