/**
 * One metric's values at every report date, sorted within each peer group of one kind (size band,
 * state, charter class, size band and state, all): a bank's standing in its group at each of its
 * report dates is then two binary searches in that group's segment, and the group's median one
 * read. Built from a scan of the metric's column (~1 s at full scale, once per metric, group kind
 * and dataset version) and kept in memory (~6 MB a metric at 750,000 reports) as a read index
 * (db/read-indexes.ts, READ_INDEX_MAX_BYTES). Custom groups are not indexed.
 */
import { sizeBandOf } from './bands.js';
import type { GroupKind } from './groups.js';
import { quantile, type Standing, standing } from './stats.js';

export type IndexedKind = Exclude<GroupKind, 'custom'>;

/** A report as the index reads it: the bank's total assets and the metric's value at the date. */
export interface MetricReport {
  cert: number;
  report_date: string;
  total_assets: number | null;
  value: number;
}

/** The group a bank belongs to under `kind` (null: in none, such as a bank without a state). */
export function groupKey(
  kind: IndexedKind,
  totalAssets: number | null,
  institution: { state: string | null; charter_class: string | null } | undefined,
): string | null {
  switch (kind) {
    case 'all':
      return '';
    case 'size':
      return sizeBandOf(totalAssets);
    case 'state':
      return institution?.state ?? null;
    case 'charter':
      return institution?.charter_class ?? null;
    case 'size_state': {
      const band = sizeBandOf(totalAssets);
      const state = institution?.state;
      return band === null || !state ? null : `${band}|${state}`;
    }
  }
}

export interface GroupAt {
  peer_count: number;
  median: number | null;
  /** Null when the subject's value is null or the group is empty. */
  standing(value: number | null): Standing | null;
}

const EMPTY: GroupAt = { peer_count: 0, median: null, standing: () => null };

export class PeerHistoryIndex {
  private constructor(
    readonly kind: IndexedKind,
    private readonly values: Float64Array,
    private readonly segments: Map<string, [number, number]>,
  ) {}

  /** The index of `reports` (any order, read as they come). */
  static async from(
    kind: IndexedKind,
    reports: AsyncIterable<MetricReport> | Iterable<MetricReport>,
    institutions: ReadonlyMap<number, { state: string | null; charter_class: string | null }>,
  ): Promise<PeerHistoryIndex> {
    // Grouped first (no key string per report), then each group's values sorted into one array.
    const groups = new Map<string, number[]>();
    let count = 0;
    for await (const report of reports) {
      const group = groupKey(kind, report.total_assets, institutions.get(report.cert));
      if (group === null) continue;
      const key = `${report.report_date}|${group}`;
      let values = groups.get(key);
      if (!values) {
        values = [];
        groups.set(key, values);
      }
      values.push(report.value);
      count++;
    }
    const sorted = new Float64Array(count);
    const segments = new Map<string, [number, number]>();
    let start = 0;
    for (const [key, values] of groups) {
      values.sort((a, b) => a - b);
      sorted.set(values, start);
      segments.set(key, [start, start + values.length]);
      start += values.length;
    }
    return new PeerHistoryIndex(kind, sorted, segments);
  }

  /** Bytes held (the values and, roughly, the segment table). */
  get bytes(): number {
    return this.values.byteLength + this.segments.size * 96;
  }

  /** The group `group` at `date`, as its peers stand (the subject among them). */
  at(date: string, group: string | null): GroupAt {
    const segment = group === null ? undefined : this.segments.get(`${date}|${group}`);
    if (!segment) return EMPTY;
    const sorted = this.values.subarray(segment[0], segment[1]);
    return {
      peer_count: sorted.length,
      median: quantile(sorted, 0.5),
      standing: (value) => (value === null ? null : standing(sorted, value)),
    };
  }
}
