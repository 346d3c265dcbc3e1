/** Counting what a load did, and the closing summary printed after it. */
import type { Refusal } from './errors.js';

export class Tally {
  read = 0;
  readonly rejected = new Map<string, number>();
  readonly skipped = new Map<string, number>();

  /** A row that could not be used (bad or missing required field); the reason names the field. */
  reject(reason: string, count = 1): void {
    this.rejected.set(reason, (this.rejected.get(reason) ?? 0) + count);
  }

  /** A value deliberately left out (e.g. FRED's "." missing marker); not an error. */
  skip(reason: string, count = 1): void {
    this.skipped.set(reason, (this.skipped.get(reason) ?? 0) + count);
  }

  get rejectedCount(): number {
    return sum(this.rejected);
  }
}

function sum(map: Map<string, number>): number {
  let total = 0;
  for (const n of map.values()) total += n;
  return total;
}

export interface TableCounts {
  readonly table: string;
  /** Rows in staging (what this load serves from now on). */
  readonly staged: number;
  /** Staged rows whose key was not served before. */
  readonly inserted: number;
  /** Staged rows whose key was already served (values refreshed). */
  readonly updated: number;
  /** Served rows in the replaced scope that this load no longer contains. */
  readonly removed: number;
  /** Staged rows not swapped in because a preferred source already serves that key. */
  readonly kept: number;
}

export interface LoadSummary {
  readonly source: string;
  readonly ok: boolean;
  readonly upstream: string;
  readonly read: number;
  readonly inserted: number;
  readonly updated: number;
  readonly removed: number;
  readonly kept: number;
  readonly rejected: number;
  readonly rejected_reasons: Record<string, number>;
  readonly skipped: Record<string, number>;
  readonly tables: readonly TableCounts[];
  readonly duration_ms: number;
  readonly checksum: string | null;
  readonly dataset_version: number | null;
  readonly error?: string;
  /** The ingest guard's rule that refused the load, with its figures. */
  readonly refused?: Refusal;
}

export function summarize(
  base: Pick<LoadSummary, 'source' | 'upstream' | 'duration_ms' | 'checksum' | 'dataset_version'>,
  tally: Tally,
  tables: readonly TableCounts[],
  error?: string,
  refused?: Refusal,
): LoadSummary {
  const total = (key: 'inserted' | 'updated' | 'removed' | 'kept') => tables.reduce((n, t) => n + t[key], 0);
  return {
    ...base,
    ok: error === undefined,
    read: tally.read,
    inserted: total('inserted'),
    updated: total('updated'),
    removed: total('removed'),
    kept: total('kept'),
    rejected: tally.rejectedCount,
    rejected_reasons: Object.fromEntries(tally.rejected),
    skipped: Object.fromEntries(tally.skipped),
    tables,
    ...(error === undefined ? {} : { error }),
    ...(refused === undefined ? {} : { refused }),
  };
}

const MAX_REASONS = 10;

function reasonLines(title: string, reasons: Record<string, number>): string[] {
  const entries = Object.entries(reasons).sort((a, b) => b[1] - a[1]);
  if (entries.length === 0) return [];
  const lines = entries.slice(0, MAX_REASONS).map(([reason, n]) => `    ${String(n).padStart(8)}  ${reason}`);
  if (entries.length > MAX_REASONS) lines.push(`    … and ${entries.length - MAX_REASONS} more reasons`);
  return [`  ${title}:`, ...lines];
}

function refusalLine(r: Refusal): string {
  const what =
    r.rule === 'shrink'
      ? `would remove ${r.count} of ${r.of} served ${r.table} rows`
      : `${r.count} of ${r.of} rows rejected`;
  return `${r.rule} rule: ${what} (${r.percent.toFixed(1)} % > ${r.limit_percent} %)`;
}

/** The human-readable closing summary. */
export function formatSummary(s: LoadSummary): string {
  const head = s.ok
    ? `${s.source}: loaded in ${(s.duration_ms / 1000).toFixed(1)} s (dataset version ${s.dataset_version})`
    : `${s.source}: FAILED after ${(s.duration_ms / 1000).toFixed(1)} s; served data unchanged: ${s.error}`;
  return [
    head,
    `  upstream:  ${s.upstream || '-'}`,
    `  read:      ${s.read} rows`,
    `  inserted:  ${s.inserted}   updated: ${s.updated}   removed: ${s.removed}${s.kept ? `   kept (preferred source): ${s.kept}` : ''}`,
    `  rejected:  ${s.rejected}`,
    ...(s.refused ? [`  refused:   ${refusalLine(s.refused)}`] : []),
    ...reasonLines('rejected rows by reason', s.rejected_reasons),
    ...reasonLines('skipped values', s.skipped),
    `  checksum:  ${s.checksum ?? '-'}`,
  ].join('\n');
}
