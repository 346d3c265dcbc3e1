/** Formatting of the HTTP benchmark's figures and the verdict against the targets. */
import type { LoadResult } from './http-procs.js';

export interface EndpointFigures {
  name: string;
  urls: string[];
  /** The saved bodies (bench/.out/ceiling-bodies-<scale>/), one per URL, for the ceiling and floor. */
  files: string[];
  /** Mean identity body size of the URL set, bytes (the ceiling answers the same bodies). */
  bytes: number;
  /** Null with `--uncached-only`. */
  cached: LoadResult | null;
  ceiling: LoadResult | null;
  uncached: LoadResult | null;
  /** Heavy endpoints only: the same bodies built and serialised from memory (bench/floor.mjs). */
  floor: LoadResult | null;
}

export interface Summary {
  scale: string;
  seconds: number;
  rounds: number;
  cachedPeakRss: number | null;
  uncachedPeakRss: number | null;
  figures: EndpointFigures[];
}

/** Cache on, default settings (access log included): a cached answer within 10 % of a bare server. */
const TARGET_RATIO = 0.9;
const TARGET_MEDIAN_P99_MS = 10;
const TARGET_MAX_P99_MS = 50;
/** A heavy endpoint's uncached server time, at most this many times its floor's. */
const TARGET_FLOOR_RATIO = 2;
const TARGET_RSS = 512 * 1024 * 1024;

const mb = (bytes: number | null) => (bytes === null ? 'n/a' : `${Math.round(bytes / 2 ** 20)} MB`);
/** The server's CPU per request of a run, µs, or '-'. */
export const us = (result: LoadResult | null) =>
  typeof result?.serverUs === 'number' ? String(Math.round(result.serverUs)) : '-';
const pad = (value: string | number, width: number) => String(value).padStart(width);
const rps = (result: LoadResult | null) => (result ? Math.round(result.rps) : '-');

function failures(result: LoadResult | null): number {
  if (!result) return 0;
  const bad = Object.entries(result.statuses)
    .filter(([code]) => Number(code) >= 400)
    .reduce((sum, [, n]) => sum + n, 0);
  return result.errors + result.timeouts + bad;
}

/** Cached req/s over the ceiling's, or null when either was not measured. */
function ceilingRatio(f: EndpointFigures): number | null {
  return f.cached && f.ceiling ? f.cached.rps / f.ceiling.rps : null;
}

/** Uncached server CPU per request over the floor's, or null. */
function floorRatio(f: EndpointFigures): number | null {
  const server = f.uncached?.serverUs;
  const floor = f.floor?.serverUs;
  return typeof server === 'number' && typeof floor === 'number' && floor > 0 ? server / floor : null;
}

const percentOf = (ratio: number | null) => (ratio === null ? '-' : `${Math.round(ratio * 100)}%`);

export function report(summary: Summary): string {
  const head = `${'endpoint'.padEnd(18)}${pad('bytes', 9)} │ cached@50: ${pad('req/s', 7)}${pad('p50', 5)}${pad('p99', 5)}${pad('µs', 5)} │ ${pad('ceiling', 8)}${pad('µs', 5)}${pad('ratio', 7)} │ uncached@10: ${pad('req/s', 7)}${pad('p50', 5)}${pad('p99', 5)}${pad('µs', 7)} │ failed`;
  const rows = summary.figures.map((f) => {
    const c = f.cached;
    const u = f.uncached;
    return `${f.name.padEnd(18)}${pad(f.bytes, 9)} │ ${' '.repeat(11)}${pad(rps(c), 7)}${pad(c?.p50 ?? '-', 5)}${pad(c?.p99 ?? '-', 5)}${pad(us(c), 5)} │ ${pad(rps(f.ceiling), 8)}${pad(us(f.ceiling), 5)}${pad(percentOf(ceilingRatio(f)), 7)} │ ${' '.repeat(13)}${pad(rps(u), 7)}${pad(u?.p50 ?? '-', 5)}${pad(u?.p99 ?? '-', 5)}${pad(us(u), 7)} │ ${failures(c) + failures(u)}`;
  });
  const heavy = summary.figures.filter((f) => f.floor);
  const floorRows = heavy.map(
    (f) =>
      `${f.name.padEnd(18)}${pad(f.bytes, 9)} │ ${pad(us(f.uncached), 9)} │ ${pad(us(f.floor), 9)} │ ${pad(floorRatio(f)?.toFixed(2) ?? '-', 6)}×`,
  );
  return [
    `HTTP benchmark, ${summary.scale}-scale demo dataset, best of ${summary.rounds} × ${summary.seconds} s per measurement (latencies in ms; µs: the server's CPU per request)`,
    head,
    ...rows,
    `peak RSS: cached server ${mb(summary.cachedPeakRss)}, uncached server ${mb(summary.uncachedPeakRss)}`,
    ...(heavy.length > 0
      ? [
          '',
          'Heavy endpoints against their floor (the same bodies built and serialised from memory; µs of server CPU per request at 10 connections)',
          `${'endpoint'.padEnd(18)}${pad('bytes', 9)} │ ${pad('uncached', 9)} │ ${pad('floor', 9)} │ ratio`,
          ...floorRows,
        ]
      : []),
  ].join('\n');
}

export function verdicts(summary: Summary): string[] {
  const lines: string[] = [];
  const measured = summary.figures.filter((f) => ceilingRatio(f) !== null);
  if (measured.length > 0) {
    const below = measured.filter((f) => (ceilingRatio(f) as number) < TARGET_RATIO);
    lines.push(
      below.length === 0
        ? `PASS cache on: every endpoint ≥ ${TARGET_RATIO * 100}% of the ceiling`
        : `MISS cache on: below ${TARGET_RATIO * 100}% of the ceiling: ${below.map((f) => `${f.name} ${percentOf(ceilingRatio(f))}`).join(', ')}`,
    );
  }
  const p99s = summary.figures
    .map((f) => ({ name: f.name, p99: f.uncached?.p99 ?? Number.NaN }))
    .sort((x, y) => x.p99 - y.p99);
  const median = p99s.length ? (p99s[Math.floor((p99s.length - 1) / 2)]?.p99 ?? 0) : 0;
  const slowest = p99s.at(-1);
  lines.push(
    `${median <= TARGET_MEDIAN_P99_MS ? 'PASS' : 'MISS'} cache off: median endpoint p99 ${median} ms (target ≤ ${TARGET_MEDIAN_P99_MS} ms)`,
  );
  lines.push(
    `${(slowest?.p99 ?? 0) <= TARGET_MAX_P99_MS ? 'PASS' : 'MISS'} cache off: slowest endpoint p99 ${slowest?.p99} ms (${slowest?.name}; target ≤ ${TARGET_MAX_P99_MS} ms)`,
  );
  const heavy = summary.figures.filter((f) => floorRatio(f) !== null);
  if (heavy.length > 0) {
    const over = heavy.filter((f) => (floorRatio(f) as number) > TARGET_FLOOR_RATIO);
    lines.push(
      over.length === 0
        ? `PASS heavy endpoints: every one within ${TARGET_FLOOR_RATIO}× its floor`
        : `MISS heavy endpoints over ${TARGET_FLOOR_RATIO}× their floor: ${over.map((f) => `${f.name} ${floorRatio(f)?.toFixed(2)}×`).join(', ')}`,
    );
  }
  const rss = Math.max(summary.cachedPeakRss ?? 0, summary.uncachedPeakRss ?? 0);
  lines.push(`${rss <= TARGET_RSS ? 'PASS' : 'MISS'} peak RSS ${mb(rss)} (target ≤ ${mb(TARGET_RSS)})`);
  if (summary.scale !== 'full')
    lines.push('(quick run on the small dataset: the targets apply to the full-scale run)');
  return lines;
}
