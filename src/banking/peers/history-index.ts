/**
 * One metric's values at every report date, sorted within each peer group of one kind (size band,
 * state, charter class, size band and state, all), and every bank's own reports with the group each
 * fell in: a bank's standing at each of its report dates is then two binary searches in that
 * group's segment and the group's median one read, with no database read at all. Built from a scan
 * of the metric's column (~1 s at full scale, once per metric, group kind and dataset version) and
 * kept in memory (~17 MB a metric at 750,000 reports) as a read index (db/read-indexes.ts,
 * READ_INDEX_MAX_BYTES). Custom groups are not indexed.
 *
 * The endpoint's answer is written from the arrays as JSON text (`json`), without a record object
 * per report date: turning doubles into text is most of what an answer costs, and a group's median
 * (one of the three doubles of every entry) is turned into text once, at build.
 */
import { sizeBandOf } from './bands.js';
import type { GroupKind } from './groups.js';
import { quantile, standingWithin } from './stats.js';

export type IndexedKind = Exclude<GroupKind, 'custom'>;

/** A report as the index reads it: the bank's total assets and the metric's value at the date. */
export interface MetricReport {
  cert: number;
  report_date: string;
  total_assets: number | null;
  value: number | null;
}

type Institution = { state: string | null; charter_class: string | null };

/** The group a bank belongs to under `kind` (null: in none, such as a bank without a state). */
export function groupKey(
  kind: IndexedKind,
  totalAssets: number | null,
  institution: Institution | undefined,
) {
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

/** One report date of a bank: its value and where it stands in its group then. */
export interface HistoryEntry {
  report_date: string;
  value: number | null;
  rank: number | null;
  percentile: number | null;
  peer_count: number;
  median: number | null;
}

/** A bank's reports as they are read, before the groups are sorted. */
interface OwnReports {
  dates: number[];
  values: number[];
  groups: number[];
}

export class PeerHistoryIndex {
  private constructor(
    readonly kind: IndexedKind,
    private readonly dates: readonly string[],
    /** Each date's entry up to its value, `{"report_date":"…","value":`, for `json`. */
    private readonly dateHeads: readonly string[],
    /** Every group's non-null values, ascending, group after group. */
    private readonly values: Float64Array,
    /** Group id → its values at [starts[id], starts[id + 1]). */
    private readonly starts: Int32Array,
    /** Group id → the median of its values as JSON text ('null': none), computed once at build. */
    private readonly medianTexts: readonly string[],
    /** cert → its reports at [from, to) of the three arrays below, oldest first. */
    private readonly reportsOf: Map<number, [number, number]>,
    private readonly reportDate: Uint16Array,
    /** NaN: no value. */
    private readonly reportValue: Float64Array,
    /** -1: in no group. */
    private readonly reportGroup: Int32Array,
    /** Certs with a row in `institutions` (a bank the API knows). */
    private readonly institutions: ReadonlySet<number>,
  ) {}

  /** The index of `reports`, read report date by report date, oldest first. */
  static async from(
    kind: IndexedKind,
    reports: AsyncIterable<MetricReport> | Iterable<MetricReport>,
    institutions: ReadonlyMap<number, Institution>,
  ): Promise<PeerHistoryIndex> {
    // Grouped first (a group id per report), then each group's values sorted into one array.
    const dates: string[] = [];
    const groupIds = new Map<string, number>();
    const grouped: number[][] = [];
    const own = new Map<number, OwnReports>();
    let count = 0;
    let reportCount = 0;
    for await (const report of reports) {
      if (dates.at(-1) !== report.report_date) dates.push(report.report_date);
      const group = groupKey(kind, report.total_assets, institutions.get(report.cert));
      const key = group === null ? '' : `${report.report_date}|${group}`;
      let id = group === null ? -1 : groupIds.get(key);
      if (id === undefined) {
        id = grouped.length;
        groupIds.set(key, id);
        grouped.push([]);
      }
      if (id >= 0 && report.value !== null) {
        (grouped[id] as number[]).push(report.value);
        count++;
      }
      let reportsOfCert = own.get(report.cert);
      if (!reportsOfCert) {
        reportsOfCert = { dates: [], values: [], groups: [] };
        own.set(report.cert, reportsOfCert);
      }
      reportsOfCert.dates.push(dates.length - 1);
      reportsOfCert.values.push(report.value ?? Number.NaN);
      reportsOfCert.groups.push(id);
      reportCount++;
    }
    const values = new Float64Array(count);
    const starts = new Int32Array(grouped.length + 1);
    const medians = new Float64Array(grouped.length).fill(Number.NaN);
    let start = 0;
    grouped.forEach((groupValues, id) => {
      groupValues.sort((a, b) => a - b);
      if (groupValues.length > 0) medians[id] = quantile(groupValues, 0.5);
      values.set(groupValues, start);
      start += groupValues.length;
      starts[id + 1] = start;
    });
    const reportsOf = new Map<number, [number, number]>();
    const reportDate = new Uint16Array(reportCount);
    const reportValue = new Float64Array(reportCount);
    const reportGroup = new Int32Array(reportCount);
    let at = 0;
    for (const [cert, reportsOfCert] of own) {
      reportsOf.set(cert, [at, at + reportsOfCert.dates.length]);
      reportsOfCert.dates.forEach((date, i) => {
        reportDate[at] = date;
        reportValue[at] = reportsOfCert.values[i] as number;
        reportGroup[at] = reportsOfCert.groups[i] as number;
        at++;
      });
    }
    const medianTexts = Array.from(medians, jsonNumber);
    const dateHeads = dates.map((date) => `{"report_date":${JSON.stringify(date)},"value":`);
    // biome-ignore format: the index's parts
    return new PeerHistoryIndex(kind, dates, dateHeads, values, starts, medianTexts, reportsOf, reportDate, reportValue, reportGroup, new Set(institutions.keys()));
  }

  /** Bytes held (the arrays and, roughly, the tables). */
  get bytes(): number {
    const arrays = this.values.byteLength + this.starts.byteLength;
    const tables = this.reportsOf.size * 64 + this.institutions.size * 16 + this.dates.length * 128;
    const reports = this.reportDate.byteLength + this.reportValue.byteLength + this.reportGroup.byteLength;
    return arrays + reports + tables + this.medianTexts.length * 40;
  }

  /** Whether `cert` is an institution the API knows (a row in `institutions`). */
  knows(cert: number): boolean {
    return this.institutions.has(cert);
  }

  /**
   * The bank's standing at every one of its report dates, oldest first (empty: no reports), as
   * records: `json` read back (numbers round-trip exactly), for the CSV writer.
   */
  history(cert: number): HistoryEntry[] {
    return JSON.parse(this.json(cert) ?? '[]') as HistoryEntry[];
  }

  /**
   * The bank's standing at every report date as the JSON text of the endpoint's answer
   * (PeerHistoryResponse, members in its order, numbers as JSON.stringify writes them); null when
   * the bank has no report.
   */
  json(cert: number): string | null {
    const range = this.reportsOf.get(cert);
    if (!range) return null;
    let text = '[';
    for (let r = range[0]; r < range[1]; r++) {
      const group = this.reportGroup[r] as number;
      // The group's values are values[from, to); a bank in no group has none.
      const from = group < 0 ? 0 : (this.starts[group] as number);
      const to = group < 0 ? 0 : (this.starts[group + 1] as number);
      const value = this.reportValue[r] as number;
      const place = Number.isNaN(value) || to === from ? null : standingWithin(this.values, from, to, value);
      const median = to === from ? 'null' : this.medianTexts[group];
      // biome-ignore format: one entry
      text += `${r === range[0] ? '' : ','}${this.dateHeads[this.reportDate[r] as number]}${jsonNumber(value)},"rank":${place?.rank ?? null},"percentile":${place ? jsonNumber(place.percentile) : null},"peer_count":${to - from},"median":${median}}`;
    }
    return `${text}]`;
  }
}

/** A number as JSON text: what JSON.stringify writes, null for NaN (no value) and infinities. */
function jsonNumber(value: number): string {
  return Number.isFinite(value) ? `${value}` : 'null';
}
