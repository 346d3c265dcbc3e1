/**
 * FRED formats: the API's JSON (`observations[].value` strings, "." = missing), both generations
 * of `fredgraph.csv` (`DATE,<ID>` with "." and `observation_date,<ID>` with empty cells), and a
 * plain JSON `{id, title, units, observations: [{date, value}]}`. Missing values are omitted.
 */
import { IngestError } from '../core/errors.js';
import { decodeText, looksLikeJson } from './records.js';

import { parseDate } from './values.js';

export interface ParsedObservation {
  readonly date: string;
  readonly value: number;
}

export interface ParsedSeries {
  readonly id: string;
  readonly title: string | null;
  readonly units: string | null;
  readonly observations: ParsedObservation[];
}

export interface ParseCounts {
  missing: number;
  invalid: string[];
}

const NUMBER = /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;

function readValue(raw: unknown, counts: ParseCounts, where: string): number | null {
  if (typeof raw === 'number' && Number.isFinite(raw)) return raw;
  const text = raw === null || raw === undefined ? '' : String(raw).trim();
  if (text === '' || text === '.') {
    counts.missing++;
    return null;
  }
  if (!NUMBER.test(text)) {
    counts.invalid.push(`${where}: value ${JSON.stringify(text).slice(0, 40)} is not a number`);
    return null;
  }
  return Number(text);
}

function readDate(raw: unknown, counts: ParseCounts, where: string): string | null {
  const date = typeof raw === 'string' || typeof raw === 'number' ? parseDate(raw) : undefined;
  if (date === undefined) counts.invalid.push(`${where}: date ${JSON.stringify(raw)} is not a date`);
  return date ?? null;
}

export function parseFredCsv(text: string, counts: ParseCounts): ParsedSeries[] {
  const lines = text.split(/\r?\n/).filter((line) => line.trim() !== '');
  const header = (lines.shift() ?? '').split(',').map((h) => h.trim().replace(/^"|"$/g, ''));
  if (header.length < 2 || !/^(date|observation_date)$/i.test(header[0] ?? '')) {
    throw new IngestError(`not a fredgraph.csv: header ${JSON.stringify(header.join(',')).slice(0, 80)}`);
  }
  const series = header.slice(1).map((id) => ({
    id: id.toUpperCase(),
    title: null,
    units: null,
    observations: [] as ParsedObservation[],
  }));
  for (const line of lines) {
    const cells = line.split(',');
    const date = readDate(cells[0]?.trim(), counts, `row ${cells[0]}`);
    if (date === null) continue;
    series.forEach((s, i) => {
      const value = readValue(cells[i + 1], counts, `${s.id} ${date}`);
      if (value !== null) s.observations.push({ date, value });
    });
  }
  return series;
}

interface FredJson {
  id?: unknown;
  title?: unknown;
  units?: unknown;
  observations?: { date?: unknown; value?: unknown }[];
}

function idFromName(location: string): string | null {
  const base = location.split(/[\\/]/).pop() ?? '';
  const m = /^([A-Za-z0-9]+)(?=[_.\-\s])/.exec(base);
  return m ? m[1]!.toUpperCase() : null;
}

/**
 * The series a FRED answer is of (its own id, else --series, else the file name) and its
 * observations; refuses an answer without them.
 */
function seriesOf<T extends FredJson>(json: T, location: string, explicitId: string | null) {
  const observations = json.observations;
  if (!Array.isArray(observations)) throw new IngestError(`${location}: no "observations" array`);
  const id = (typeof json.id === 'string' ? json.id : null) ?? explicitId ?? idFromName(location);
  if (!id) throw new IngestError(`${location}: cannot tell which series this is; pass --series <ID>`);
  return { id, observations: observations as NonNullable<T['observations']> };
}

export function parseFredJson(
  json: FredJson,
  location: string,
  explicitId: string | null,
  counts: ParseCounts,
) {
  const { id, observations: items } = seriesOf(json, location, explicitId);
  const observations: ParsedObservation[] = [];
  for (const item of items) {
    const date = readDate(item.date, counts, `${id}`);
    const value = readValue(item.value, counts, `${id} ${String(item.date)}`);
    if (date !== null && value !== null) observations.push({ date, value });
  }
  return {
    id: id.toUpperCase(),
    title: typeof json.title === 'string' ? json.title : null,
    units: typeof json.units === 'string' ? json.units : null,
    observations,
  };
}

/** Every series in one `--from` input. */
export function parseFredInput(
  bytes: Buffer,
  location: string,
  explicitId: string | null,
  counts: ParseCounts,
) {
  const text = decodeText(bytes);
  if (!looksLikeJson(text)) return parseFredCsv(text, counts);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new IngestError(`${location}: invalid JSON (${(error as Error).message})`);
  }
  return [parseFredJson(json as FredJson, location, explicitId, counts)];
}

/** `Daily` / `Weekly` / `Monthly` / `Quarterly` / `Annual` from the typical spacing of the dates. */
export function inferFrequency(observations: readonly ParsedObservation[]): string {
  const gaps: number[] = [];
  for (let i = 1; i < Math.min(observations.length, 200); i++) {
    gaps.push((Date.parse(observations[i]!.date) - Date.parse(observations[i - 1]!.date)) / 86_400_000);
  }
  gaps.sort((a, b) => a - b);
  const median = gaps[Math.floor(gaps.length / 2)] ?? 0;
  if (median <= 4) return 'Daily';
  if (median <= 8) return 'Weekly';
  if (median <= 32) return 'Monthly';
  if (median <= 95) return 'Quarterly';
  return 'Annual';
}

/** FRED's `2026-05-02 07:46:10-05` as ISO 8601 (`2026-05-02T07:46:10-05:00`); other text as is. */
export function isoLastUpdated(value: string | null | undefined): string | null {
  if (!value) return null;
  const m = /^(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2})([+-]\d{2})(?::?(\d{2}))?$/.exec(value.trim());
  return m ? `${m[1]}T${m[2]}${m[3]}:${m[4] ?? '00'}` : value;
}

/** One ALFRED row: the value of `date` while `realtime_start`…`realtime_end` (null: not published). */
export interface VintagePeriod {
  readonly date: string;
  readonly realtimeStart: string;
  readonly realtimeEnd: string;
  readonly value: number | null;
}

interface AlfredJson extends FredJson {
  observations?: { date?: unknown; value?: unknown; realtime_start?: unknown; realtime_end?: unknown }[];
}

const REALTIME = /^\d{4}-\d{2}-\d{2}$/;

/**
 * FRED observations asked with `realtime_start=1776-07-04&realtime_end=9999-12-31` (UPSTREAM.md
 * §2.1): one row per observation date and real-time period. A `.` value is kept as null (absent
 * from the vintages of that period), not counted missing; a row without real-time dates is invalid.
 */
export function parseAlfredJson(
  json: AlfredJson,
  location: string,
  explicitId: string | null,
  counts: ParseCounts,
) {
  const { id, observations: items } = seriesOf(json, location, explicitId);
  const periods: VintagePeriod[] = [];
  for (const item of items) {
    const date = readDate(item.date, counts, id);
    const [start, end] = [item.realtime_start, item.realtime_end];
    if (
      typeof start !== 'string' ||
      typeof end !== 'string' ||
      !REALTIME.test(start) ||
      !REALTIME.test(end) ||
      start > end
    ) {
      counts.invalid.push(`${id} ${String(item.date)}: realtime_start/realtime_end missing or not dates`);
      continue;
    }
    const text = item.value === null || item.value === undefined ? '' : String(item.value).trim();
    const value =
      text === '.' || text === '' ? null : readValue(item.value, counts, `${id} ${String(item.date)}`);
    if (date === null || (value === null && text !== '.' && text !== '')) continue;
    periods.push({ date, realtimeStart: start, realtimeEnd: end, value });
  }
  return {
    id: id.toUpperCase(),
    title: typeof json.title === 'string' ? json.title : null,
    units: typeof json.units === 'string' ? json.units : null,
    periods,
  };
}

/** The values published now: each date's period still open (`9999-12-31`), where it has a value. */
export function currentObservations(periods: readonly VintagePeriod[]): ParsedObservation[] {
  return periods
    .filter((p) => p.realtimeEnd === '9999-12-31' && p.value !== null)
    .map((p) => ({ date: p.date, value: p.value as number }))
    .sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
}
