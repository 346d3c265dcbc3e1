/**
 * `regdata serve --workers N`: N API processes on one machine sharing one port (node:cluster; the
 * primary accepts and hands connections out round-robin). The primary only supervises: it restarts
 * a worker that dies, and on SIGTERM/SIGINT forwards SIGTERM so every worker drains its in-flight
 * requests (server.ts) before the primary exits. Each worker opens its own database pool, so the
 * database sees N × DB_POOL_SIZE connections.
 */
import cluster, { type Worker } from 'node:cluster';
import { fileURLToPath } from 'node:url';

export interface ClusterOptions {
  readonly workers: number;
  /** Arguments the workers run the CLI with (the primary's own `serve …` arguments). */
  readonly args: readonly string[];
  /** How long workers get to drain after SIGTERM before they are killed. */
  readonly drainTimeoutMs?: number;
  readonly log?: (line: string) => void;
}

/** A worker that dies younger than this is restarted after a pause, not in a tight crash loop. */
const MIN_HEALTHY_LIFETIME_MS = 5000;
const RESTART_PAUSE_MS = 1000;

export function isClusterWorker(): boolean {
  return cluster.isWorker;
}

/** Runs the supervising primary; resolves with the exit code once every worker has stopped. */
export function runPrimary(options: ClusterOptions): Promise<number> {
  const log = options.log ?? ((line: string) => console.error(`regdata: ${line}`));
  // The workers run this same CLI (dist/cli.js), whatever launched the primary (npm start, bin).
  cluster.setupPrimary({
    exec: fileURLToPath(new URL('./cli.js', import.meta.url)),
    args: [...options.args],
  });
  const startedAt = new Map<number, number>();
  let stopping = false;

  const fork = (): void => {
    const worker = cluster.fork();
    startedAt.set(worker.id, Date.now());
  };

  cluster.on('exit', (worker: Worker, code: number | null, signal: string | null) => {
    const lived = Date.now() - (startedAt.get(worker.id) ?? 0);
    startedAt.delete(worker.id);
    if (stopping) return;
    const how = signal ? `signal ${signal}` : `code ${code}`;
    log(`worker ${worker.process.pid} exited (${how}) after ${lived} ms; starting a replacement`);
    setTimeout(fork, lived < MIN_HEALTHY_LIFETIME_MS ? RESTART_PAUSE_MS : 0);
  });

  for (let i = 0; i < options.workers; i++) fork();
  log(`primary ${process.pid} started ${options.workers} workers`);

  return new Promise((resolve) => {
    const stop = (signal: NodeJS.Signals) => {
      if (stopping) return;
      stopping = true;
      log(`${signal}: draining ${Object.keys(cluster.workers ?? {}).length} workers`);
      const workers = Object.values(cluster.workers ?? {}).filter((w): w is Worker => w !== undefined);
      const killTimer = setTimeout(() => {
        log('workers did not drain in time; killing them');
        for (const worker of workers) worker.process.kill('SIGKILL');
        resolve(1);
      }, options.drainTimeoutMs ?? 30_000);
      killTimer.unref();
      let remaining = workers.length;
      if (remaining === 0) resolve(0);
      for (const worker of workers) {
        worker.once('exit', () => {
          remaining -= 1;
          if (remaining === 0) {
            clearTimeout(killTimer);
            resolve(0);
          }
        });
        worker.process.kill('SIGTERM');
      }
    };
    process.once('SIGTERM', () => stop('SIGTERM'));
    process.once('SIGINT', () => stop('SIGINT'));
  });
}
