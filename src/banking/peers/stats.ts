/**
 * The statistics of SPEC §5, as plain functions over the non-null values of one metric in one group:
 * quantiles by linear interpolation between closest ranks (numpy's default, Excel's
 * PERCENTILE.INC), rank, percentile with ties at their midpoint, and a 5–95 % trimmed mean.
 */

/** The q-quantile (0 ≤ q ≤ 1) of ascending `sorted` (non-empty). */
export function quantile(sorted: ArrayLike<number>, q: number): number {
  const position = (sorted.length - 1) * q;
  const lower = Math.floor(position);
  const upper = Math.min(lower + 1, sorted.length - 1);
  const low = sorted[lower]!;
  return low + (position - lower) * (sorted[upper]! - low);
}

export function mean(values: readonly number[]): number {
  let sum = 0;
  for (const value of values) sum += value;
  return sum / values.length;
}

/**
 * The mean of the values between p5 and p95 (inclusive); null when none is: only with exactly two
 * distinct values, where both lie outside (from three values on, the second lowest is always inside).
 */
function trimmedMean(values: readonly number[], p5: number, p95: number): number | null {
  const inside = values.filter((v) => v >= p5 && v <= p95);
  return inside.length === 0 ? null : mean(inside);
}

export interface Distribution {
  readonly peer_count: number;
  readonly min: number | null;
  readonly p5: number | null;
  readonly p25: number | null;
  readonly median: number | null;
  readonly p75: number | null;
  readonly p95: number | null;
  readonly max: number | null;
  readonly mean: number | null;
  readonly trimmed_mean: number | null;
}

const EMPTY: Distribution = {
  peer_count: 0,
  min: null,
  p5: null,
  p25: null,
  median: null,
  p75: null,
  p95: null,
  max: null,
  mean: null,
  trimmed_mean: null,
};

/** The distribution of `values` (any order; sorted in place). */
export function distribution(values: number[]): Distribution {
  if (values.length === 0) return EMPTY;
  values.sort((a, b) => a - b);
  const p5 = quantile(values, 0.05);
  const p95 = quantile(values, 0.95);
  return {
    peer_count: values.length,
    min: values[0]!,
    p5,
    p25: quantile(values, 0.25),
    median: quantile(values, 0.5),
    p75: quantile(values, 0.75),
    p95,
    max: values.at(-1)!,
    mean: mean(values),
    trimmed_mean: trimmedMean(values, p5, p95),
  };
}

export interface Standing {
  readonly rank: number;
  readonly percentile: number;
}

/**
 * Where `value` stands among `sorted` (ascending, the subject included): rank = 1 + peers strictly
 * higher; percentile = 100 × (below + (equal − 1) / 2) / (n − 1), 100 when n = 1.
 */
export function standing(sorted: ArrayLike<number>, value: number): Standing {
  return standingWithin(sorted, 0, sorted.length, value);
}

/**
 * `standing` among `sorted[from, to)` (non-empty): the peer index (history-index.ts) keeps every
 * group's values in one array and asks without cutting a view of it per report date.
 */
export function standingWithin(sorted: ArrayLike<number>, from: number, to: number, value: number): Standing {
  const n = to - from;
  const below = lowerBound(sorted, from, to, value) - from;
  const notAbove = upperBound(sorted, from, to, value) - from;
  const equal = notAbove - below;
  return {
    rank: 1 + (n - notAbove),
    percentile: n === 1 ? 100 : (100 * (below + (equal - 1) / 2)) / (n - 1),
  };
}

/** First index in [from, to) of ascending `sorted` whose value is ≥ `value` (`to` if none). */
function lowerBound(sorted: ArrayLike<number>, from: number, to: number, value: number): number {
  let lo = from;
  let hi = to;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid]! < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** First index in [from, to) whose value is > `value` (`to` if none). */
function upperBound(sorted: ArrayLike<number>, from: number, to: number, value: number): number {
  let lo = from;
  let hi = to;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid]! <= value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
