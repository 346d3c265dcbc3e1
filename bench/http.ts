/**
 * `npm run bench` (`-- --quick` for a short run on the small demo). Starts the BUILT server
 * (`node dist/cli.js serve`) on the demo dataset (full scale by default, built once into
 * bench/.out/), and drives each endpoint's URL set from a separate autocannon process: cached at
 * 50 connections, then uncached (`--no-cache`) at 10. The ceiling is a bare Fastify server at 50
 * connections answering each URL's body as a constant: the same bytes, so the same size and the
 * same cost to the load generator (autocannon decodes every body as UTF-8, ten times slower for
 * text that is not pure ASCII, so a body of 'x' would measure the client). Prints req/s, p50,
 * p99, the ratio to the ceiling, the server's peak RSS, and the verdict on the targets; writes the
 * figures to bench/.out/http-<scale>.json. Each measurement runs `--rounds` times (default 2),
 * alternating endpoint and ceiling, and the best round counts.
 *
 * The heavy endpoints (HEAVY_SETS) are also measured against their floor (bench/floor.mjs): a bare
 * server building and serialising the same bodies from memory, at the uncached run's 10
 * connections, its rounds alternating with the uncached server's; the target is the uncached
 * server's CPU per request within 2× the floor's.
 * `--uncached-only` skips the cached runs and the ceiling (the bodies are still fetched and saved).
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  buildDemoDataset,
  type LoadResult,
  measuredLoad,
  type Proc,
  ROOT,
  startCeiling,
  startFloor,
  startServer,
} from './http-procs.js';
import { type EndpointFigures, report, us, verdicts } from './http-report.js';
import { HEAVY_SETS, urlSets } from './http-urls.js';

const quick = process.argv.includes('--quick');
const scale = quick ? 'small' : 'full';
const seconds = Number(argValue('--seconds') ?? (quick ? 2 : 10));
const only = argValue('--only');
const rounds = Number(argValue('--rounds') ?? 2);
const uncachedOnly = process.argv.includes('--uncached-only');
const OUT = join(ROOT, 'bench/.out');
/** The bodies the ceiling answers: each endpoint's own answers, byte for byte. */
const BODIES = join(OUT, `ceiling-bodies-${scale}`);

function argValue(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

/**
 * The better of two runs (more requests per second; less server CPU per request), counting the
 * failures of both.
 */
function best(a: LoadResult, b: LoadResult): LoadResult {
  const winner = b.rps > a.rps ? b : a;
  const cpu = [a.serverUs, b.serverUs].filter((us): us is number => typeof us === 'number');
  return {
    ...winner,
    errors: a.errors + b.errors,
    timeouts: a.timeouts + b.timeouts,
    serverUs: cpu.length ? Math.min(...cpu) : null,
  };
}

/** Headers that belong to one request or connection (Node writes its own), not to the answer. */
const PER_REQUEST_HEADERS = new Set([
  'date',
  'connection',
  'keep-alive',
  'content-length',
  'transfer-encoding',
]);

/**
 * Fetches every URL once: drops (and reports) any that does not answer 200; saves each body, and the
 * headers it came with, for the ceiling and the floor to answer, and returns the file names in the
 * same order, and the mean size.
 */
async function warm(
  server: Proc,
  name: string,
  paths: string[],
): Promise<{ paths: string[]; files: string[]; bytes: number }> {
  const ok: string[] = [];
  const files: string[] = [];
  let bytes = 0;
  for (const path of paths) {
    const response = await fetch(server.origin + path, { headers: { 'accept-encoding': 'identity' } });
    const body = Buffer.from(await response.arrayBuffer());
    if (response.status === 200) {
      const file = `${name.replace(/\W+/g, '-')}-${ok.length}.body`;
      writeFileSync(join(BODIES, file), body);
      const headers = [...response.headers].filter(([name]) => !PER_REQUEST_HEADERS.has(name));
      writeFileSync(join(BODIES, `${file}.headers.json`), JSON.stringify(Object.fromEntries(headers)));
      ok.push(path);
      files.push(file);
      bytes += body.byteLength;
    } else {
      console.error(`  ${name}: ${path} answered ${response.status}; left out`);
    }
  }
  return { paths: ok, files, bytes: ok.length ? Math.round(bytes / ok.length) : 0 };
}

/** `measure` `rounds` times, the best round kept. */
async function bestOf(measure: () => Promise<LoadResult>): Promise<LoadResult> {
  let result = await measure();
  for (let round = 1; round < rounds; round++) result = best(result, await measure());
  return result;
}

/**
 * `a` and `b` in alternating rounds, `rounds` of each, the best round of each kept: on a shared
 * machine the load of others comes and goes, and two figures measured minutes apart would compare
 * two moments of it (the same server's CPU per request for the same URLs was seen to move 156 →
 * 266 µs from one 10 s run to the next).
 */
async function alternating(
  a: () => Promise<LoadResult>,
  b: () => Promise<LoadResult>,
): Promise<[LoadResult, LoadResult]> {
  let bestA = await a();
  let bestB = await b();
  for (let round = 1; round < rounds; round++) {
    bestA = best(bestA, await a());
    bestB = best(bestB, await b());
  }
  return [bestA, bestB];
}

async function main() {
  if (process.argv.includes('--compare-backends')) {
    // SQLite and PostgreSQL side by side on the same URL sets (bench/backends.ts).
    const { compareBackends } = await import('./backends.js');
    return compareBackends({ scale, seconds, only, cached: process.argv.includes('--cached') });
  }
  mkdirSync(BODIES, { recursive: true });
  const database = join(OUT, `${scale}.sqlite`);
  if (!existsSync(database)) {
    console.error(`building the ${scale} demo dataset into ${database} (once) …`);
    const started = Date.now();
    await buildDemoDataset(database, scale);
    console.error(`built in ${Math.round((Date.now() - started) / 1000)} s`);
  }
  const all = Object.entries(urlSets(database));
  // `--only a,b`: those URL sets, by their exact names.
  const wanted = only?.split(',').map((name) => name.trim());
  const sets = all.filter(([name]) => !wanted || wanted.includes(name));
  if (sets.length === 0)
    throw new Error(`--only ${only}: no such URL set (${all.map(([n]) => n).join(', ')})`);
  const figures: EndpointFigures[] = [];
  const ceiling = await startCeiling(BODIES);
  let server = await startServer(database, true);
  let floor: Proc | null = null;
  try {
    console.error(
      uncachedOnly
        ? `fetching the bodies of ${sets.length} endpoints …`
        : `cached: ${sets.length} endpoints × ${seconds} s at 50 connections, each with its ceiling …`,
    );
    for (const [name, all] of sets) {
      const { paths, files, bytes } = await warm(server, name, all);
      if (paths.length === 0) continue;
      const entry: EndpointFigures = {
        name,
        urls: paths,
        files,
        bytes,
        cached: null,
        ceiling: null,
        uncached: null,
        floor: null,
      };
      figures.push(entry);
      if (uncachedOnly) continue;
      const ceilingPaths = files.map((file) => `/body/${file}`);
      [entry.cached, entry.ceiling] = await alternating(
        () => measuredLoad(server, paths, 50, seconds),
        () => measuredLoad(ceiling, ceilingPaths, 50, seconds),
      );
      console.error(
        `  ${name}: ${Math.round(entry.cached.rps)} req/s, ${us(entry.cached)} µs/req (ceiling ${Math.round(entry.ceiling.rps)} req/s, ${us(entry.ceiling)} µs/req)`,
      );
    }
    const cachedPeakRss = uncachedOnly ? null : server.peakRss();
    await server.stop();
    server = await startServer(database, false);
    const heavy = figures.filter((entry) => HEAVY_SETS.includes(entry.name));
    // Idle until its turn: it holds only the saved bodies, and its CPU is counted by process.
    floor = heavy.length > 0 ? await startFloor(BODIES) : null;
    console.error(
      `uncached: ${figures.length} endpoints × ${seconds} s at 10 connections` +
        (heavy.length > 0 ? `, the ${heavy.length} heavy ones alternating with their floor …` : ' …'),
    );
    for (const entry of figures) {
      // One request per URL first, unmeasured: a read index built on first use (src/db/read-indexes.ts)
      // is a cost of the dataset version, not of every answer.
      for (const path of entry.urls) await (await fetch(server.origin + path)).arrayBuffer();
      const uncached = () => measuredLoad(server, entry.urls, 10, seconds);
      if (floor && heavy.includes(entry)) {
        const floorPaths = entry.files.map((file) => `/floor/${file}`);
        const floorServer = floor;
        [entry.uncached, entry.floor] = await alternating(uncached, () =>
          measuredLoad(floorServer, floorPaths, 10, seconds),
        );
      } else {
        entry.uncached = await bestOf(uncached);
      }
      const floorNote = entry.floor ? ` (floor ${us(entry.floor)} µs/req)` : '';
      console.error(
        `  ${entry.name}: p99 ${entry.uncached.p99} ms, ${us(entry.uncached)} µs/req${floorNote}`,
      );
    }
    const uncachedPeakRss = server.peakRss();
    await server.stop();
    const summary = { scale, seconds, rounds, cachedPeakRss, uncachedPeakRss, figures };
    console.log(report(summary));
    console.log(verdicts(summary).join('\n'));
    const file = only ? `http-${scale}-${only.replace(/\W+/g, '-')}.json` : `http-${scale}.json`;
    writeFileSync(join(OUT, file), `${JSON.stringify(summary, null, 2)}\n`);
  } finally {
    await server.stop();
    await ceiling.stop();
    await floor?.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
