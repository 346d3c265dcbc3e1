/**
 * Demo FRED series: each of the 12 catalogue series from its real first observation through
 * October 2026 at its real frequency (business days, Wednesdays, month starts, quarter starts).
 * Values follow the anchor paths with autocorrelated noise; T10Y2Y is DGS10 − DGS2 of the same
 * day; USREC marks the real NBER recessions. Daily series skip weekends and fixed-date holidays and
 * miss a few random days, as FRED's `"."` rows are omitted.
 */
import type { Insertable } from 'kysely';
import type { MacroObservationsTable, MacroSeriesTable } from '../../db/tables.js';
import { MACRO_SERIES, type MacroSeriesDefinition } from '../../macro/catalog.js';
import { MACRO_ANCHORS, RECESSION_MONTHS } from './macro-anchors.js';
import { type Random, round } from './random.js';

const LAST_DAY = '2026-10-31';
const LAST_QUARTER_START = '2026-07-01';
const DAY_MS = 86_400_000;
const HOLIDAYS = new Set(['01-01', '07-04', '12-25']);

/** Log-scale AR(1) noise per series: standard deviation and persistence per observation. */
const NOISE: Record<string, { sd: number; phi: number; decimals: number }> = {
  FEDFUNDS: { sd: 0.06, phi: 0.6, decimals: 2 },
  DGS10: { sd: 0.05, phi: 0.995, decimals: 2 },
  DGS2: { sd: 0.07, phi: 0.995, decimals: 2 },
  UNRATE: { sd: 0.03, phi: 0.7, decimals: 1 },
  CPIAUCSL: { sd: 0.003, phi: 0.9, decimals: 3 },
  M2SL: { sd: 0.005, phi: 0.9, decimals: 1 },
  TOTBKCR: { sd: 0.004, phi: 0.95, decimals: 4 },
  TOTLL: { sd: 0.004, phi: 0.95, decimals: 4 },
  DRCCLACBS: { sd: 0.05, phi: 0.5, decimals: 2 },
  DRSFRMACBS: { sd: 0.04, phi: 0.6, decimals: 2 },
};

const LAST_UPDATED: Record<string, string> = {
  Daily: '2026-11-02 15:16:03-06',
  Weekly: '2026-10-30 16:16:02-05',
  Monthly: '2026-11-06 07:44:06-06',
  Quarterly: '2026-08-27 14:47:01-05',
};

const pad = (n: number) => (n < 10 ? `0${n}` : String(n));
const daysInMonth = (year: number, month: number) => new Date(Date.UTC(year, month, 0)).getUTCDate();

/** Calendar days from `from` through `to`, every `step` days, with their weekday (0 = Sunday). */
function* calendarDays(from: string, to: string, step: number): Generator<[string, number]> {
  let [year, month, day] = from.split('-').map(Number) as [number, number, number];
  let weekday = new Date(Date.UTC(year, month - 1, day)).getUTCDay();
  for (;;) {
    const date = `${year}-${pad(month)}-${pad(day)}`;
    if (date > to) return;
    yield [date, weekday];
    day += step;
    weekday = (weekday + step) % 7;
    for (let days = daysInMonth(year, month); day > days; days = daysInMonth(year, month)) {
      day -= days;
      month += 1;
      if (month > 12) [year, month] = [year + 1, 1];
    }
  }
}

/** Observation dates of a series from its first observation through October 2026. */
export function observationDates(series: MacroSeriesDefinition): string[] {
  const dates: string[] = [];
  if (series.frequency === 'Daily' || series.frequency === 'Weekly') {
    const daily = series.frequency === 'Daily';
    for (const [date, weekday] of calendarDays(series.observationStart, LAST_DAY, daily ? 1 : 7)) {
      if (daily && (weekday === 0 || weekday === 6 || HOLIDAYS.has(date.slice(5)))) continue;
      dates.push(date);
    }
    return dates;
  }
  const monthStep = series.frequency === 'Monthly' ? 1 : 3;
  const last = series.frequency === 'Monthly' ? '2026-10-01' : LAST_QUARTER_START;
  let [year, month] = [
    Number(series.observationStart.slice(0, 4)),
    Number(series.observationStart.slice(5, 7)),
  ];
  for (;;) {
    const date = `${year}-${pad(month)}-01`;
    if (date > last) return dates;
    dates.push(date);
    month += monthStep;
    if (month > 12) [year, month] = [year + 1, month - 12];
  }
}

function decimalYear(date: string): number {
  const year = Number(date.slice(0, 4));
  const dayOfYear =
    (Date.UTC(year, Number(date.slice(5, 7)) - 1, Number(date.slice(8, 10))) - Date.UTC(year, 0, 1)) / DAY_MS;
  return year + dayOfYear / 365.25;
}

/** Linear interpolation between anchors (held flat outside them). */
function anchorValue(anchors: readonly [number, number][], t: number): number {
  if (t <= anchors[0]![0]) return anchors[0]![1];
  for (let i = 1; i < anchors.length; i++) {
    const [t1, v1] = anchors[i]!;
    if (t <= t1) {
      const [t0, v0] = anchors[i - 1]!;
      return v0 + ((v1 - v0) * (t - t0)) / (t1 - t0);
    }
  }
  return anchors[anchors.length - 1]![1];
}

/** The anchor path times exp(AR(1) noise); one value per date. */
function noisyPath(random: Random, id: string, dates: readonly string[]): Map<string, number> {
  const anchors = [...(MACRO_ANCHORS[id] ?? [])].sort((a, b) => a[0] - b[0]);
  const { sd, phi } = NOISE[id]!;
  const innovation = sd * Math.sqrt(1 - phi * phi);
  let deviation = random.normal(0, sd);
  const values = new Map<string, number>();
  for (const date of dates) {
    deviation = phi * deviation + random.normal(0, innovation);
    values.set(date, anchorValue(anchors, decimalYear(date)) * Math.exp(deviation));
  }
  return values;
}

function inRecession(date: string): number {
  const month = date.slice(0, 7);
  return RECESSION_MONTHS.some(([from, to]) => month >= from && month <= to) ? 1 : 0;
}

/** A few random missing days in daily series (FRED's "." rows). */
function dropMissing(random: Random, dates: readonly string[]): string[] {
  return dates.filter(() => !random.chance(0.002));
}

export function generateMacro(random: Random): {
  series: Insertable<MacroSeriesTable>[];
  observations: Insertable<MacroObservationsTable>[];
} {
  const allDates = new Map(MACRO_SERIES.map((s) => [s.id, observationDates(s)]));
  const paths = new Map<string, Map<string, number>>();
  for (const series of MACRO_SERIES) {
    if (series.id === 'T10Y2Y' || series.id === 'USREC') continue;
    paths.set(series.id, noisyPath(random.fork(series.id), series.id, allDates.get(series.id)!));
  }
  const observations: Insertable<MacroObservationsTable>[] = [];
  for (const series of MACRO_SERIES) {
    const daily = series.frequency === 'Daily';
    const dates = daily
      ? dropMissing(random.fork(`missing:${series.id}`), observationDates(series))
      : observationDates(series);
    for (const date of dates) {
      const value = observationValue(series.id, date, paths);
      if (value !== undefined) observations.push({ series_id: series.id, date, value });
    }
  }
  const series = MACRO_SERIES.map((s) => ({
    id: s.id,
    title: s.title,
    units: s.units,
    frequency: s.frequency,
    seasonal_adjustment: s.seasonalAdjustment,
    last_updated: LAST_UPDATED[s.frequency] ?? null,
  }));
  return { series, observations };
}

function observationValue(
  id: string,
  date: string,
  paths: Map<string, Map<string, number>>,
): number | undefined {
  if (id === 'USREC') return inRecession(date);
  if (id === 'T10Y2Y') {
    const [ten, two] = [paths.get('DGS10')?.get(date), paths.get('DGS2')?.get(date)];
    return ten === undefined || two === undefined ? undefined : round(round(ten, 2) - round(two, 2), 2);
  }
  const value = paths.get(id)?.get(date);
  return value === undefined ? undefined : round(value, NOISE[id]!.decimals);
}
