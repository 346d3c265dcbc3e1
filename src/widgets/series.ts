/**
 * Turns report rows into the widget's quarterly series: one slot per calendar quarter, missing
 * quarters and unreported values as null (drawn as gaps), at most the last 20 quarters, ending at
 * the newest reported value. Pure functions; render.ts and the routes share them.
 */

export const MAX_QUARTERS = 20;

export interface SeriesPoint {
  /** Report date, YYYY-MM-DD (a quarter end). */
  readonly date: string;
  /** Percent; null when not reported for that quarter. */
  readonly value: number | null;
}

export interface Summary {
  readonly latest: SeriesPoint & { readonly value: number };
  /** The quarter just before `latest` (null value when not reported). */
  readonly previous: SeriesPoint | null;
  /** latest − previous in percentage points, rounded to 0.01; null without a previous value. */
  readonly change: number | null;
}

const QUARTER_END = ['03-31', '06-30', '09-30', '12-31'] as const;

export function quarterIndex(date: string): number {
  const year = Number(date.slice(0, 4));
  const month = Number(date.slice(5, 7));
  return year * 4 + Math.floor((month - 1) / 3);
}

export function quarterEnd(index: number): string {
  const year = Math.floor(index / 4);
  return `${String(year).padStart(4, '0')}-${QUARTER_END[index - year * 4]}`;
}

export function quarterLabel(date: string): string {
  const index = quarterIndex(date);
  return `Q${index - Math.floor(index / 4) * 4 + 1} ${Math.floor(index / 4)}`;
}

/**
 * Rows in any order (one per report date) → ascending quarterly series ending at the newest
 * non-null value, gaps filled with nulls, at most `MAX_QUARTERS` long. Empty when nothing is reported.
 */
export function toQuarterlySeries(rows: readonly SeriesPoint[]): SeriesPoint[] {
  const reported = rows.filter((row) => row.value !== null && Number.isFinite(row.value));
  if (reported.length === 0) return [];
  const lastIndex = Math.max(...reported.map((row) => quarterIndex(row.date)));
  const firstIndex = lastIndex - MAX_QUARTERS + 1;
  const byQuarter = new Map<number, SeriesPoint>();
  for (const row of rows) {
    const index = quarterIndex(row.date);
    if (index < firstIndex || index > lastIndex) continue;
    const value = row.value !== null && Number.isFinite(row.value) ? row.value : null;
    byQuarter.set(index, { date: row.date, value });
  }
  const start = Math.min(...byQuarter.keys());
  const series: SeriesPoint[] = [];
  for (let index = start; index <= lastIndex; index++) {
    series.push(byQuarter.get(index) ?? { date: quarterEnd(index), value: null });
  }
  return series;
}

/** Latest value and the change against the previous quarter; null for an empty series. */
export function summarise(series: readonly SeriesPoint[]): Summary | null {
  const latest = series.at(-1);
  if (!latest || latest.value === null) return null;
  const previous = series.at(-2) ?? null;
  const change =
    previous?.value === null || previous === null
      ? null
      : Math.round((latest.value - previous.value) * 100) / 100 || 0;
  return { latest: { date: latest.date, value: latest.value }, previous, change };
}
