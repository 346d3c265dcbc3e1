/**
 * Runs one source: stage → swap in one transaction (+ dataset version + provenance) → summary.
 * Any error before the commit leaves the served tables, the dataset version and the provenance
 * exactly as they were; the staging tables are dropped either way.
 */

import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Transaction } from 'kysely';
import type { Config } from '../../config.js';
import { withRollbackJournalWhenAlone } from '../../db/bulk.js';
import type { DbHandle } from '../../db/connect.js';
import {
  bumpDatasetVersion,
  type LoadScope,
  listSources,
  recordLoad,
  recordSource,
} from '../../db/dataset.js';
import { demoOwnersOf } from '../../db/demo-sources.js';
import type { Database, TableName } from '../../db/tables.js';
import { IngestError, LoadRefused } from './errors.js';
import { Fetcher, redactUrl } from './fetcher.js';
import { checkRejectedRows } from './guard.js';
import { createProgress, type ProgressMode } from './progress.js';
import { createStaging, dropStaging, type Stager } from './staging.js';
import { type LoadSummary, summarize, type TableCounts, Tally } from './summary.js';
import { scopeOf, swapTable } from './swap.js';
import type { IngestContext, IngestOptions, IngestSource } from './types.js';

export interface RunEnvironment {
  readonly handle: DbHandle;
  readonly config: Config;
  readonly options: IngestOptions;
  readonly progressMode: ProgressMode;
  /** Where log and progress lines go (stderr in the CLI). */
  readonly log: (line: string) => void;
}

export function createFetcher(config: Config, log: (line: string) => void, onBytes?: (b: Buffer) => void) {
  return new Fetcher({
    maxRetries: config.ingestMaxRetries,
    retryBaseMs: config.ingestRetryBaseMs,
    requestIntervalMs: config.ingestRequestIntervalMs,
    timeoutMs: config.ingestTimeoutMs,
    onRetry: (message) => log(`retrying: ${message}`),
    ...(onBytes ? { onBytes } : {}),
  });
}

function isUrl(location: string): boolean {
  return /^https?:\/\//i.test(location);
}

function localPath(location: string): string {
  return location.startsWith('file:') ? fileURLToPath(location) : resolve(location);
}

export async function runSource(source: IngestSource, env: RunEnvironment): Promise<LoadSummary> {
  const started = Date.now();
  const tally = new Tally();
  const hash = createHash('sha256');
  let hashedBytes = 0;
  const onBytes = (bytes: Buffer) => {
    hash.update(bytes);
    hashedBytes += bytes.length;
  };
  const stagers: Stager<TableName>[] = [];
  const inputs: string[] = [];
  const notes: string[] = [];
  const swapSteps: SwapStep[] = [];
  let upstream: string | null = null;
  const fetcher = createFetcher(env.config, env.log, onBytes);
  const progress = createProgress(env.progressMode, source.name, env.log);

  const ctx: IngestContext = {
    handle: env.handle,
    config: env.config,
    options: env.options,
    fetcher,
    progress,
    tally,
    log: env.log,
    async readInput(location) {
      if (isUrl(location)) {
        inputs.push(redactUrl(location));
        return fetcher.get(location);
      }
      const path = localPath(location);
      inputs.push(path);
      const bytes = await readFile(path).catch((error: NodeJS.ErrnoException) => {
        throw new IngestError(`cannot read ${path}: ${error.code ?? error.message}`);
      });
      onBytes(bytes);
      return bytes;
    },
    async stage(spec) {
      const stager = await createStaging(env.handle, source.name, spec, tally);
      stagers.push(stager as unknown as Stager<TableName>);
      return stager;
    },
    setUpstream(value) {
      upstream = redactUrl(value);
    },
    addNote(note) {
      notes.push(note);
    },
    onSwap(step) {
      swapSteps.push(step);
    },
  };

  const finish = (tables: TableCounts[], version: number | null, error?: unknown) =>
    summarize(
      {
        source: source.name,
        upstream: upstream ?? inputs.join(' '),
        duration_ms: Date.now() - started,
        checksum: hashedBytes > 0 ? `sha256:${hash.copy().digest('hex')}` : null,
        dataset_version: version,
      },
      tally,
      tables,
      error === undefined ? undefined : error instanceof Error ? error.message : String(error),
      error instanceof LoadRefused ? error.refusal : undefined,
    );

  try {
    await source.run(ctx);
    for (const stager of stagers) await stager.flush();
    progress.stop();
    checkRejectedRows(tally.rejectedCount, tally.read, env.config.ingestMaxRejectedPercent);
    if (stagers.length === 0 || stagers.every((s) => s.staged === 0)) {
      throw new IngestError('the upstream gave no usable rows; nothing was changed');
    }
    const partial = finish([], null);
    const { tables, version } = await swapAll(env.handle, source.name, stagers, {
      upstream: partial.upstream,
      checksum: partial.checksum,
      started,
      notes,
      swapSteps,
      maxShrinkPercent: env.options.allowShrink ? null : env.config.ingestMaxShrinkPercent,
      beforeCommit: async () => {
        if (env.config.ingestSwapPauseMs <= 0) return;
        env.log(`${source.name}: swap transaction open, holding it ${env.config.ingestSwapPauseMs} ms`);
        await new Promise((resolve) => setTimeout(resolve, env.config.ingestSwapPauseMs));
      },
    });
    return finish(tables, version);
  } catch (error) {
    progress.stop();
    return finish([], null, error);
  } finally {
    for (const stager of stagers) await dropStaging(env.handle, stager).catch(() => {});
  }
}

interface Provenance {
  readonly upstream: string;
  readonly checksum: string | null;
  readonly started: number;
  readonly notes: readonly string[];
  readonly swapSteps: readonly SwapStep[];
  /** The guard's shrink limit for this load (null with --allow-shrink). */
  readonly maxShrinkPercent: number | null;
  /** Runs last inside the transaction (the INGEST_SWAP_PAUSE_MS testing aid). */
  readonly beforeCommit: () => Promise<void>;
}

type SwapStep = (trx: Transaction<Database>) => Promise<unknown>;

/**
 * The one transaction. Into a database nothing was loaded into yet there is nothing to serve
 * meanwhile: when no other connection has the file open, its pages are written once, through a
 * rollback journal instead of the WAL (withRollbackJournalWhenAlone).
 */
async function swapAll(
  handle: DbHandle,
  sourceName: string,
  stagers: readonly Stager<TableName>[],
  provenance: Provenance,
): Promise<{ tables: TableCounts[]; version: number }> {
  const swap = () => handle.db.transaction().execute((trx) => swapIn(trx, sourceName, stagers, provenance));
  const firstLoad = (await listSources(handle.db)).length === 0;
  return firstLoad ? withRollbackJournalWhenAlone(handle, swap) : swap();
}

/** Replaces served rows, bumps the dataset version, records provenance. */
async function swapIn(
  trx: Transaction<Database>,
  sourceName: string,
  stagers: readonly Stager<TableName>[],
  provenance: Provenance,
): Promise<{ tables: TableCounts[]; version: number }> {
  // Real data never mixes with the synthetic demo rows: a table whose demo label stands is replaced
  // whole (src/db/demo-sources.ts), and the labels of the tables replaced go with this load.
  const labelled = (await trx.selectFrom('sources').select('source').where('is_demo', '=', 1).execute()).map(
    (row) => row.source,
  );
  const retired = new Set<string>();
  const tables: TableCounts[] = [];
  const scope: LoadScope[] = [];
  for (const stager of stagers) {
    if (stager.staged === 0) continue;
    const owners = demoOwnersOf(stager.spec.table, labelled);
    for (const owner of owners) retired.add(owner);
    const rules = { replacesDemo: owners.length > 0, maxShrinkPercent: provenance.maxShrinkPercent };
    scope.push(await scopeOf(trx, stager, rules.replacesDemo));
    tables.push(await swapTable(trx, stager, rules));
  }
  if (retired.size > 0)
    await trx
      .deleteFrom('sources')
      .where('source', 'in', [...retired])
      .execute();
  for (const step of provenance.swapSteps) await step(trx);
  const version = await bumpDatasetVersion(trx);
  const rows = tables.reduce((n, t) => n + t.staged, 0);
  const perTable = tables.length > 1 ? tables.map((t) => `${t.table} ${t.staged}`).join(', ') : '';
  const notes = [perTable, ...provenance.notes].filter((n) => n !== '').join('; ');
  await recordSource(trx, {
    source: sourceName,
    upstream: provenance.upstream,
    loaded_at: new Date().toISOString(),
    rows,
    duration_ms: Date.now() - provenance.started,
    checksum: provenance.checksum,
    is_demo: 0,
    notes: notes || null,
  });
  const total = (key: 'inserted' | 'updated' | 'removed') => tables.reduce((n, t) => n + t[key], 0);
  await recordLoad(trx, {
    version,
    source: sourceName,
    upstream: provenance.upstream,
    is_demo: 0,
    scope,
    inserted: total('inserted'),
    updated: total('updated'),
    removed: total('removed'),
  });
  await provenance.beforeCommit();
  return { tables, version };
}
