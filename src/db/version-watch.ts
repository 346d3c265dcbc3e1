/**
 * Notices dataset-version bumps made by another process (an ingest or `regdata demo`), cheaply:
 * - SQLite: `PRAGMA data_version` on the API's own connection changes whenever another connection
 *   commits. Checking it costs about a microsecond, so it runs on every call to current() and the
 *   version table is only re-read after a commit — nothing stale survives a load.
 * - PostgreSQL: a poll of `dataset.version` every `pollMs` (the API may answer from the previous
 *   version for at most that long after a load commits).
 */
import type { Statement } from 'better-sqlite3';
import type { DbHandle } from './connect.js';
import { datasetVersion } from './dataset.js';

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
    current() {
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
    },
    onChange: listeners.add,
    stop() {},
  };
}

async function pollingWatch(handle: DbHandle, pollMs: number): Promise<VersionWatch> {
  const listeners = notifier();
  const read = () => datasetVersion(handle.db).catch(() => version);
  let version = 0;
  version = await read();
  let polling = false;
  const timer = setInterval(async () => {
    if (polling) return;
    polling = true;
    const next = await read();
    polling = false;
    if (next !== version) {
      version = next;
      listeners.emit(version);
    }
  }, pollMs);
  timer.unref();
  return {
    current: () => version,
    onChange: listeners.add,
    stop: () => clearInterval(timer),
  };
}
