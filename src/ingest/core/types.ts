/**
 * The contract between `regdata ingest` and each source. A source reads its upstream (or the
 * `--from` inputs), stages rows through `ctx.stage(...)`, and returns; the runner then swaps every
 * staged table into place in one transaction and records provenance (see run.ts, staging.ts).
 */

import type { Transaction } from 'kysely';
import type { Config } from '../../config.js';
import type { DbHandle } from '../../db/connect.js';
import type { Database, TableName } from '../../db/tables.js';
import type { Fetcher } from './fetcher.js';
import type { Progress } from './progress.js';
import type { Stager, StagingSpec } from './staging.js';
import type { Tally } from './summary.js';

export type SourceGroup = 'banking' | 'holdings';

/** Options from the command line, shared by every source; each source reads what it understands. */
export interface IngestOptions {
  /** `--from`: local files or URLs to read instead of the default upstream (in order). */
  readonly from: readonly string[];
  /** `--since YYYY-MM-DD`: first report date / observation to load, where the source supports it. */
  readonly since?: string;
  /** `--until YYYY-MM-DD`: last report date, where the source supports it. */
  readonly until?: string;
  /** `--series ID[,ID]`: FRED series to load (default: the 12 catalogue series). */
  readonly series?: readonly string[];
  /** `--page-size n`: rows per upstream request, where the upstream pages. */
  readonly pageSize?: number;
  /** `--latest n`: SEC 13F data sets: load the newest n data sets listed on SEC's page. */
  readonly latest?: number;
  /** `--vintages`: FRED also loads ALFRED real-time periods (for `as_of` on the macro endpoints). */
  readonly vintages?: boolean;
  /** `--allow-shrink`: accept a load that removes more of a replaced scope than the guard allows. */
  readonly allowShrink?: boolean;
  /** `--accession`, `--cik`, `--period`, `--filed`: identity of a single 13F filing whose files lack it. */
  readonly filing?: {
    readonly accession?: string;
    readonly cik?: string;
    readonly period?: string;
    readonly filed?: string;
  };
}

export interface IngestContext {
  readonly handle: DbHandle;
  readonly config: Config;
  readonly options: IngestOptions;
  readonly fetcher: Fetcher;
  readonly progress: Progress;
  /** Counts rows read, rejected and skipped (with reasons); printed in the closing summary. */
  readonly tally: Tally;
  /** Human-readable log line (stderr). */
  log(line: string): void;
  /** Reads a `--from` input (file path, `file:` URL or http(s) URL); bytes go into the checksum. */
  readInput(location: string): Promise<Buffer>;
  /** Opens a staging table for `spec`; its rows are swapped in when the source returns. */
  stage<T extends TableName>(spec: StagingSpec<T>): Promise<Stager<T>>;
  /** Where the data came from, for provenance (URL or file; several joined with a space). */
  setUpstream(upstream: string): void;
  /** A note stored with the provenance row (e.g. which quarters were loaded). */
  addNote(note: string): void;
  /**
   * Registers a step run inside the swap transaction, after the staged tables are swapped in and
   * before the dataset version is bumped (e.g. recomputing derived tables from the new raw rows).
   */
  onSwap(step: (trx: Transaction<Database>) => Promise<unknown>): void;
}

export interface IngestSource {
  /** As typed after `regdata ingest`, and as recorded in the `sources` table. */
  readonly name: string;
  readonly group: SourceGroup;
  readonly description: string;
  /** When false, `regdata ingest <group>` skips this source unless `enabledInGroup` says otherwise. */
  enabledInGroup?(config: Config): boolean | string;
  run(ctx: IngestContext): Promise<void>;
}
