/** Formatting of the HTTP benchmark's figures and the verdict against the targets. */
import type { LoadResult } from './http-procs.js';

export interface EndpointFigures {
  name: string;
  urls: string[];
  /** Mean identity body size of the URL set, bytes (the ceiling answers the same bodies). */
  bytes: number;
  cached: LoadResult;
  ceiling: LoadResult;
  uncached: LoadResult | null;
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
const TARGET_RSS = 512 * 1024 * 1024;

const mb = (bytes: number | null) => (bytes === null ? 'n/a' : `${Math.round(bytes / 2 ** 20)} MB`);
/** The server's CPU per request of a run, µs, or '-'. */
export const us = (result: LoadResult | null) =>
  typeof result?.serverUs === 'number' ? String(Math.round(result.serverUs)) : '-';
const pad = (value: string | number, width: number) => String(value).padStart(width);

function failures(result: LoadResult | null): number {
  if (!result) return 0;
  const bad = Object.entries(result.statuses)
    .filter(([code]) => Number(code) >= 400)
    .reduce((sum, [, n]) => sum + n, 0);
  return result.errors + result.timeouts + bad;
}

export function report(summary: Summary): string {
  const head = `${'endpoint'.padEnd(18)}${pad('bytes', 9)} │ cached@50: ${pad('req/s', 7)}${pad('p50', 5)}${pad('p99', 5)}${pad('µs', 5)} │ ${pad('ceiling', 8)}${pad('µs', 5)}${pad('ratio', 7)} │ uncached@10: ${pad('req/s', 7)}${pad('p50', 5)}${pad('p99', 5)} │ failed`;
  const rows = summary.figures.map((f) => {
    const ratio = f.cached.rps / f.ceiling.rps;
    const u = f.uncached;
    return `${f.name.padEnd(18)}${pad(f.bytes, 9)} │ ${' '.repeat(11)}${pad(Math.round(f.cached.rps), 7)}${pad(f.cached.p50, 5)}${pad(f.cached.p99, 5)}${pad(us(f.cached), 5)} │ ${pad(Math.round(f.ceiling.rps), 8)}${pad(us(f.ceiling), 5)}${pad(`${Math.round(ratio * 100)}%`, 7)} │ ${' '.repeat(13)}${pad(u ? Math.round(u.rps) : '-', 7)}${pad(u?.p50 ?? '-', 5)}${pad(u?.p99 ?? '-', 5)} │ ${failures(f.cached) + failures(u)}`;
  });
  return [
    `HTTP benchmark, ${summary.scale}-scale demo dataset, best of ${summary.rounds} × ${summary.seconds} s per measurement (latencies in ms; µs: the server's CPU per request)`,
    head,
    ...rows,
    `peak RSS: cached server ${mb(summary.cachedPeakRss)}, uncached server ${mb(summary.uncachedPeakRss)}`,
  ].join('\n');
}

export function verdicts(summary: Summary): string[] {
  const lines: string[] = [];
  const below = summary.figures.filter((f) => f.cached.rps / f.ceiling.rps < TARGET_RATIO);
  lines.push(
    below.length === 0
      ? `PASS cache on: every endpoint ≥ ${TARGET_RATIO * 100}% of the ceiling`
      : `MISS cache on: below ${TARGET_RATIO * 100}% of the ceiling: ${below.map((f) => `${f.name} ${Math.round((f.cached.rps / f.ceiling.rps) * 100)}%`).join(', ')}`,
  );
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
  const rss = Math.max(summary.cachedPeakRss ?? 0, summary.uncachedPeakRss ?? 0);
  lines.push(`${rss <= TARGET_RSS ? 'PASS' : 'MISS'} peak RSS ${mb(rss)} (target ≤ ${mb(TARGET_RSS)})`);
  if (summary.scale !== 'full')
    lines.push('(quick run on the small dataset: the targets apply to the full-scale run)');
  return lines;
}
