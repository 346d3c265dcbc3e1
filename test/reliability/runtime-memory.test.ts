/**
 * `serve` replaces its own process image once at launch with the memory settings of
 * src/cli/runtime-memory.ts: the same process id answers, with the V8 flag on its command line and
 * the malloc settings in its environment; settings the user gave win, and TUNE_MEMORY=false leaves
 * the process as launched. Read from /proc (Linux).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVER_MALLOC_ENV, SERVER_NODE_FLAGS } from '../../src/cli/runtime-memory.js';
import { buildServer, demoCopy, spawnServer } from './support.js';

const onLinux = process.platform === 'linux';

function processOf(pid: number) {
  const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
  const environ = readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').filter(Boolean);
  return { cmdline, env: Object.fromEntries(environ.map((entry) => entry.split(/=(.*)/s).slice(0, 2))) };
}

describe.skipIf(!onLinux)('the serving process’s memory settings', () => {
  const cleanups: (() => void)[] = [];
  let cli = '';
  let database = '';

  beforeAll(async () => {
    const [build, demo] = await Promise.all([buildServer(), demoCopy()]);
    cleanups.push(demo.cleanup);
    cli = build.cli;
    database = demo.url;
  }, 600_000);

  afterAll(() => {
    for (const cleanup of cleanups) cleanup();
  });

  async function launched(env: Record<string, string>, ipc = false) {
    const server = await spawnServer(cli, { DATABASE_URL: database, ...env }, [], { ipc });
    try {
      const ready = await fetch(`${server.origin}/readyz`);
      expect(ready.status).toBe(200);
      return processOf(server.child.pid as number);
    } finally {
      await server.stop();
      expect(await server.exited).toBe(0);
    }
  }

  it('the launched process id serves with the V8 flag and the malloc settings', async () => {
    const { cmdline, env } = await launched({});
    for (const flag of SERVER_NODE_FLAGS) expect(cmdline).toContain(flag);
    expect(cmdline).toContain(cli);
    expect(cmdline.slice(-2)).toEqual(['serve', '--no-migrate']);
    for (const [name, value] of Object.entries(SERVER_MALLOC_ENV)) expect(env[name]).toBe(value);
  });

  it('keeps the settings the user gave', async () => {
    const { cmdline, env } = await launched({
      NODE_OPTIONS: '--max-semi-space-size=16',
      MALLOC_ARENA_MAX: '4',
    });
    expect(cmdline.filter((arg) => arg.startsWith('--max-semi-space-size'))).toEqual([]);
    expect(env.NODE_OPTIONS).toBe('--max-semi-space-size=16');
    expect(env.MALLOC_ARENA_MAX).toBe('4');
    expect(env.MALLOC_MMAP_THRESHOLD_).toBe(SERVER_MALLOC_ENV.MALLOC_MMAP_THRESHOLD_);
  });

  it('knows a flag the user spelt with underscores', async () => {
    const { cmdline, env } = await launched({ NODE_OPTIONS: '--max_semi_space_size=16' });
    expect(cmdline.filter((arg) => arg.startsWith('--max-semi-space-size'))).toEqual([]);
    expect(env.NODE_OPTIONS).toBe('--max_semi_space_size=16');
  });

  it('a server started with an IPC channel (fork, PM2) keeps it: served as launched', async () => {
    const { cmdline, env } = await launched({}, true);
    expect(cmdline.filter((arg) => arg.startsWith('--max-semi-space-size'))).toEqual([]);
    expect(env.MALLOC_ARENA_MAX).toBeUndefined();
  });

  it('TUNE_MEMORY=false serves as launched', async () => {
    const { cmdline, env } = await launched({ TUNE_MEMORY: 'false' });
    expect(cmdline.filter((arg) => arg.startsWith('--max-semi-space-size'))).toEqual([]);
    expect(env.MALLOC_ARENA_MAX).toBeUndefined();
  });

  it('bounds the old generation’s growth: the same garbage peaks in a smaller heap', {
    timeout: 60_000,
  }, () => {
    // A live set and a stream of garbage that survives a while, as answers being built do.
    const module = pathToFileURL(join(dirname(cli), 'cli', 'runtime-memory.js')).href;
    const peakHeapMb = (tune: boolean) => {
      const script = `
        const { limitHeapGrowth } = await import(${JSON.stringify(module)});
        limitHeapGrowth(${tune});
        const live = [];
        for (let i = 0; i < 200000; i++) live.push({ a: i, b: 'x' + i, c: [i, i] });
        let peak = 0;
        const recent = [];
        for (let round = 0; round < 3000; round++) {
          const garbage = [];
          for (let i = 0; i < 2000; i++) garbage.push({ round, i, s: 'y' + i, list: [1, 2, 3] });
          recent.push(garbage);
          if (recent.length > 20) recent.shift();
          peak = Math.max(peak, process.memoryUsage().heapTotal);
        }
        console.log(live.length && peak / 1048576);`;
      return Number(
        execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' }),
      );
    };
    // A bound is about the worst case: the highest peak of three runs each, alternating. (V8 also
    // sizes the heap from how fast its collections run, so on a busy machine an unbounded run now and
    // then peaks at ~160 MB instead of ~350, below a bounded run's ~250.)
    const runs = [true, false, true, false, true, false].map((tune) => ({ tune, peak: peakHeapMb(tune) }));
    const highest = (tune: boolean) =>
      Math.max(...runs.filter((run) => run.tune === tune).map((run) => run.peak));
    const [tuned, untuned] = [highest(true), highest(false)];
    expect(tuned).toBeGreaterThan(0);
    expect(tuned).toBeLessThan(untuned * 0.9);
  });
});
