/**
 * Notices dataset-version bumps made by another process (an ingest or `regdata demo`), cheaply:
 * - SQLite: `PRAGMA data_version` on the API's own connection changes whenever another connection
 *   commits. Checking it costs about a microsecond, so it runs on every call to current() and the
 *   version table is only re-read after a commit — nothing stale survives a load.
 * - PostgreSQL: LISTEN on the channel a load NOTIFYs when it commits, so the version is re-read
 *   within milliseconds of the commit; a poll every `pollMs` stays as the fallback for a lost
 *   listener connection or a read replica (which cannot LISTEN, and lags its primary anyway).
 */
import type { Statement } from 'better-sqlite3';
import pg from 'pg';
import type { DbHandle } from './connect.js';
import { DATASET_CHANNEL, datasetVersion } from './dataset.js';

export interface VersionWatch {
  /** The dataset version as of now (SQLite) or as of the last poll (PostgreSQL). */
  current(): number;
  /** Called with the new version whenever a change is noticed. */
  onChange(listener: (version: number) => void): void;
  stop(): void;
}

export async function watchDatasetVersion(handle: DbHandle, pollMs: number): Promise<VersionWatch> {
  return handle.sqlite ? sqliteWatch(handle.sqlite) : await pollingWatch(handle, pollMs);
}

function notifier() {
  const listeners: ((version: number) => void)[] = [];
  return {
    add: (listener: (version: number) => void) => listeners.push(listener),
    emit: (version: number) => {
      for (const listener of listeners) listener(version);
    },
  };
}

/** How long a check stays good for later calls of the same event-loop turn. */
const CHECK_COVERS_MS = 1;

/**
 * `check` at the first call of each event-loop turn, and again whenever CHECK_COVERS_MS has passed
 * (a turn can hold a slow synchronous query); the other calls get the last result. The requests a
 * turn answers were read when it began (or, after such a query, within the last millisecond), so an
 * answer still reflects every load committed before its request arrived, give or take that
 * millisecond. The check (`PRAGMA data_version`: a read transaction and its file locks, 2–6 µs) ran
 * for every request and cost 11 % of a small uncached answer, more than the rest of a cached one.
 */
function oncePerTurn<T>(check: () => T): () => T {
  let checkedAt = Number.NEGATIVE_INFINITY;
  let inTurn = false;
  let last: T;
  const nextTurn = () => {
    inTurn = false;
  };
  return () => {
    const now = performance.now();
    if (inTurn && now - checkedAt < CHECK_COVERS_MS) return last;
    if (!inTurn) {
      inTurn = true;
      setImmediate(nextTurn);
    }
    checkedAt = now;
    last = check();
    return last;
  };
}

function sqliteWatch(sqlite: NonNullable<DbHandle['sqlite']>): VersionWatch {
  const dataVersion = sqlite.prepare('PRAGMA data_version').pluck();
  let versionQuery: Statement | null = null;
  const readVersion = (): number => {
    try {
      versionQuery ??= sqlite.prepare('SELECT version FROM dataset WHERE id = 1').pluck();
      return Number(versionQuery.get() ?? 0);
    } catch {
      return 0; // not migrated yet: nothing is loaded, so version 0
    }
  };
  const listeners = notifier();
  let seen = dataVersion.get() as number;
  let version = readVersion();
  return {
    current: oncePerTurn(() => {
      const now = dataVersion.get() as number;
      if (now !== seen) {
        seen = now;
        const next = readVersion();
        if (next !== version) {
          version = next;
          listeners.emit(version);
        }
      }
      return version;
    }),
    onChange: listeners.add,
    stop() {},
  };
}

async function pollingWatch(handle: DbHandle, pollMs: number): Promise<VersionWatch> {
  const listeners = notifier();
  const read = () => datasetVersion(handle.db).catch(() => version);
  let version = 0;
  version = await read();
  let checking = false;
  let again = false;
  const check = async () => {
    if (checking) {
      again = true; // a notification during a read: read once more afterwards
      return;
    }
    checking = true;
    do {
      again = false;
      const next = await read();
      if (next !== version) {
        version = next;
        listeners.emit(version);
      }
    } while (again);
    checking = false;
  };
  const timer = setInterval(check, pollMs);
  timer.unref();
  const stopListening = handle.pgPool ? listenForLoads(handle.pgPool, pollMs, check) : () => {};
  return {
    current: () => version,
    onChange: listeners.add,
    stop: () => {
      clearInterval(timer);
      stopListening();
    },
  };
}

/**
 * Keeps one dedicated connection (outside the query pool, so it never takes a query's slot)
 * LISTENing for committed loads; reconnects after errors. Returns a function that stops it.
 */
function listenForLoads(pool: pg.Pool, retryMs: number, onLoad: () => void): () => void {
  let client: pg.Client | null = null;
  let stopped = false;
  let retry: NodeJS.Timeout | undefined;
  const close = () => {
    // A late socket error after end() must not become an unhandled 'error' event.
    client?.removeAllListeners().on('error', () => {});
    client?.end().catch(() => {});
  };
  const reconnectLater = () => {
    close();
    client = null;
    if (!stopped) retry = setTimeout(connect, Math.max(retryMs * 4, 1000)).unref();
  };
  const connect = async () => {
    const next = new pg.Client(pool.options);
    client = next;
    next.on('error', reconnectLater);
    next.on('notification', () => onLoad());
    try {
      await next.connect();
      await next.query(`LISTEN ${DATASET_CHANNEL}`);
      onLoad(); // a load may have committed while we were not listening
    } catch {
      if (client === next) reconnectLater();
    }
  };
  void connect();
  return () => {
    stopped = true;
    clearTimeout(retry);
    close();
  };
}
