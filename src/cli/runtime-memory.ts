/**
 * The API process's memory settings. Its resident memory was mostly what V8 and glibc keep after use,
 * not what it holds: V8's old generation, which on a large machine grows to ~4× what survived its
 * last full collection, and glibc's malloc, which raises its mmap threshold after every large free
 * (up to 32 MB) and keeps up to 8 arenas per core, so the megabyte buffers of whole-portfolio answers
 * and of blobs read from SQLite stayed in its heaps once freed. `serve` therefore bounds the old
 * generation's growth (limitHeapGrowth) and replaces its own process image once, before doing
 * anything (process.execve: the same pid, so a supervisor, `npm start` and signals still see one
 * process), with malloc settings that hand freed memory back: at most 2 arenas, a fixed 1 MB mmap
 * threshold and a 1 MB trim threshold. (A 64 KB threshold kept less, but every blob of a packed
 * portfolio read from SQLite, 0.1–0.3 MB, then came from a fresh mapping that faulted in page by
 * page: compare 7.9 → 11 ms a request.) The young generation gets 32 MB semi-spaces (16 MB by
 * default here): a whole-portfolio answer allocates megabytes, and at 8 MB its garbage was promoted
 * and collected again in the bounded old generation (compare ~9.0 → ~5.9 ms a request, for ~60 MB
 * more peak RSS). The answers' own buffers come from a pool (http/buffer-pool.ts). Figures:
 * docs/performance.md, "Memory of the serving process". Settings the user gave (the flag in
 * NODE_OPTIONS or the command line, a MALLOC_* variable) are kept; TUNE_MEMORY=false starts the
 * server as it was launched.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { setFlagsFromString } from 'node:v8';

/** V8 flags of the serving process. */
export const SERVER_NODE_FLAGS = ['--max-semi-space-size=32'] as const;

/** glibc malloc settings of the serving process (ignored by other C libraries). */
export const SERVER_MALLOC_ENV = {
  MALLOC_ARENA_MAX: '2',
  MALLOC_MMAP_THRESHOLD_: '1048576',
  MALLOC_TRIM_THRESHOLD_: '1048576',
} as const;

/**
 * How far V8 lets the old generation grow past what survived the last full collection, in percent.
 * By default the limit on a large machine reaches ~4× the survivors: the heap in use swung between
 * ~60 and ~240 MB while ~60 MB was alive, every page of it resident. At 50 % it stays near ~120 MB
 * and answers are as fast (collections of a smaller heap are cheaper; at 25 % overlap and compare
 * slowed by 15–20 %). Figures: docs/performance.md, "Memory of the serving process".
 */
export const SERVER_HEAP_GROWING_PERCENT = 50;

/** Set in the replaced process: it is tuned already. */
const TUNED_MARK = 'REGDATA_MEMORY_TUNED';

/** A V8 flag's name, as Node accepts it spelt with `-` or `_`. */
const flagName = (flag: string) => (flag.split('=')[0] as string).replaceAll('_', '-');

/**
 * Why this process is left as launched, or null when it can be replaced: execve is POSIX only (on
 * Windows it throws), a replaced process loses an IPC channel (child_process.fork, PM2, `node
 * --watch`), and the built CLI must exist (not when run from the TypeScript sources).
 */
function cannotReplace(cli: string): string | null {
  if (process.platform === 'win32') return 'no execve';
  if (process.channel) return 'an IPC channel';
  return existsSync(cli) ? null : 'no built CLI';
}

/**
 * Replaces this process with a tuned one running the same command; returns (doing nothing) when
 * tuning is off, already done, or impossible (cannotReplace). `environment` is the process's own.
 */
export function execTunedIfNeeded(tune: boolean, environment: NodeJS.ProcessEnv): void {
  if (!tune || environment[TUNED_MARK] === '1') return;
  // The real entry script: `npm start` imports the CLI into scripts/start.mjs with a made-up argv[1].
  const cli = fileURLToPath(new URL('../cli.js', import.meta.url));
  const execve = process.execve?.bind(process);
  if (!execve || cannotReplace(cli)) return;
  const given = `${process.execArgv.join(' ')} ${environment.NODE_OPTIONS ?? ''}`.replaceAll('_', '-');
  const flags = SERVER_NODE_FLAGS.filter((flag) => !given.includes(flagName(flag)));
  const env: NodeJS.ProcessEnv = { ...SERVER_MALLOC_ENV, ...environment, [TUNED_MARK]: '1' };
  execve(
    process.execPath,
    [process.execPath, ...flags, ...process.execArgv, cli, ...process.argv.slice(2)],
    env,
  );
}

/**
 * Bounds the old generation's growth (SERVER_HEAP_GROWING_PERCENT) in this process, unless tuning is
 * off or the command line sets it. Set at run time, not as a launch flag: it then holds in cluster
 * workers and where the process is not replaced too, and a Node whose V8 lacked the flag would only
 * print a warning instead of refusing to start.
 */
export function limitHeapGrowth(tune: boolean): void {
  if (!tune || process.execArgv.some((arg) => flagName(arg) === '--heap-growing-percent')) return;
  setFlagsFromString(`--heap-growing-percent=${SERVER_HEAP_GROWING_PERCENT}`);
}
