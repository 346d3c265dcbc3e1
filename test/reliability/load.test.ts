/**
 * Real HTTP against the built server in its own process, driven by autocannon at high
 * concurrency: zero failed requests, no 5xx, and bounded memory. RELIABILITY_LOAD_SECONDS sets the
 * duration (default 5; `.ci/run` sets 60).
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { drive, serverErrors, URL_CYCLE } from './load-driver.js';
import { buildServer, demoCopy, metricValue, type RunningServer, spawnServer } from './support.js';

const SECONDS = Number(process.env.RELIABILITY_LOAD_SECONDS ?? 5);
const CONNECTIONS = 100;
const WARMUP_CONNECTIONS = 10;
/** Live-heap growth allowed between the end of warm-up and the end of the run. */
const HEAP_GROWTH_BOUND = 16 * 1024 * 1024;
/**
 * Bound on the slowest requests but a few (the 99.99th percentile: ~12 requests of a 60 s run). It
 * was 3.8–5.2 s while 100 connections opened at once: Node accepts one connection per event-loop
 * turn, and each turn answered every open connection first, so dozens of connections' requests
 * waited. With the turn budget (src/http/turns.ts) 0.4–0.6 s on a 2-core machine
 * (docs/performance.md). Starvation put ~65 of 100 connections' first answers past 4 s, so 3 s on
 * the 99.99th percentile still catches it; the tail some machines show (p99.99 1.0–2.0 s, max
 * 1.6–2.5 s, p99 ~70–105 ms: connections opened at the start and accepted late, all answered within
 * the run's first ~2 s; docs/performance.md) does not fail it.
 */
const MAX_LATENCY_MS = 3000;
const RSS_BOUND = 512 * 1024 * 1024;

describe('sustained load on the built server', () => {
  let server: RunningServer;

  /**
   * The live heap: the server, preloaded with gc-on-signal.mjs, runs a full collection on SIGUSR2.
   * Without it the figure is mostly garbage V8 has not yet collected, and varies by machine.
   */
  async function liveHeap(): Promise<number> {
    await new Promise((done) => setTimeout(done, 500)); // the last responses finish
    server.child.kill('SIGUSR2');
    await new Promise((done) => setTimeout(done, 500));
    return metricValue(server.origin, 'nodejs_heap_size_used_bytes');
  }
  const cleanups: (() => void)[] = [];

  beforeAll(async () => {
    const [build, demo] = await Promise.all([buildServer(), demoCopy()]);
    cleanups.push(demo.cleanup);
    // A small cache, so eviction runs all the time under load.
    server = await spawnServer(
      build.cli,
      {
        DATABASE_URL: demo.url,
        CACHE_MAX_BYTES: String(2 * 1024 * 1024),
      },
      ['--expose-gc', '--import', join(import.meta.dirname, 'gc-on-signal.mjs')],
    );
  }, 600_000);

  afterAll(async () => {
    await server?.stop();
    for (const cleanup of cleanups) cleanup();
  });

  it(
    `serves ${CONNECTIONS} connections for ${SECONDS} s with zero failures and bounded memory`,
    async () => {
      // Warm up (JIT, SQLite page cache, the caches' tables) at modest concurrency, once over every
      // URL the run will send: a cold server filling its bounded tables is not what the run below
      // measures.
      const warmup = await drive(server.origin, { amount: URL_CYCLE }, WARMUP_CONNECTIONS);
      expect(warmup.errors).toBe(0);
      const heapBefore = await liveHeap();
      const result = await drive(server.origin, { seconds: SECONDS }, CONNECTIONS);
      const heapAfter = await liveHeap();
      const rss = await metricValue(server.origin, 'process_resident_memory_bytes');
      console.log(
        `load: ${result.requests.total} requests in ${SECONDS} s (${Math.round(result.requests.average)} req/s), p99 ${result.latency.p99} ms, p99.99 ${result.latency.p99_99} ms, max ${result.latency.max} ms; heap ${Math.round(heapBefore / 2 ** 20)} → ${Math.round(heapAfter / 2 ** 20)} MB, rss ${Math.round(rss / 2 ** 20)} MB`,
      );
      expect(result.requests.total).toBeGreaterThan(0);
      expect(result.errors).toBe(0);
      expect(result.timeouts).toBe(0);
      // No connection waits: all but the slowest few answers stay within a bound.
      expect(result.latency.p99_99).toBeLessThan(MAX_LATENCY_MS);
      expect(serverErrors(result)).toBe(0);
      expect(heapAfter - heapBefore).toBeLessThan(HEAP_GROWTH_BOUND);
      expect(rss).toBeLessThan(RSS_BOUND);
      expect(server.child.exitCode).toBeNull();
    },
    (SECONDS * 2 + 60) * 1000,
  );
});
