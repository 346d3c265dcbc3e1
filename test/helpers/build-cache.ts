/**
 * Builds the test files share (the compiled server, the transpiled CLI, the small demo database),
 * made once and reused from node_modules/.cache/regdata-tests by every test file and every later run
 * until the sources they come from change: a hash of those files names each entry.
 *
 * Test files run in parallel forks, so an entry is made under a lock (the other forks wait for it
 * rather than build it a second time) into a temporary path renamed into place, and an entry is
 * deleted only after an hour unused (a running server may still load modules from it).
 */
import { createHash } from 'node:crypto';
import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
  writeSync,
} from 'node:fs';
import { join, resolve } from 'node:path';

export const REPO = resolve(import.meta.dirname, '../..');
const CACHE = join(REPO, 'node_modules/.cache/regdata-tests');
const UNUSED_FOR_MS = 60 * 60 * 1000;
/** A lock with no process id, older than this, was left by a fork that died taking it. */
const ABANDONED_LOCK_MS = 15 * 60 * 1000;
const POLL_MS = 200;

/** The inputs of anything built from the working tree: the sources, their config and package.json. */
export const SOURCE_INPUTS = ['src', 'config', 'package.json', 'tsconfig.json', 'tsconfig.build.json'];

/** A hash of the files under `paths` (directories recursively), relative to the repository. */
export function sourceHash(paths: readonly string[] = SOURCE_INPUTS): string {
  const hash = createHash('sha1');
  for (const path of paths) {
    const full = join(REPO, path);
    const files = statSync(full).isDirectory()
      ? readdirSync(full, { recursive: true, withFileTypes: true })
          .filter((f) => f.isFile())
          .map((f) => join(f.parentPath, f.name))
          .sort()
      : [full];
    for (const file of files) hash.update(file).update(readFileSync(file));
  }
  return hash.digest('hex').slice(0, 16);
}

/**
 * The path of the cache entry `kind` for `hash`, made by `make(path)` (a file or a directory) when it
 * does not exist yet.
 */
export async function cached(
  kind: string,
  hash: string,
  make: (path: string) => Promise<void>,
): Promise<string> {
  mkdirSync(CACHE, { recursive: true });
  const name = `${kind}-${hash}`;
  const target = join(CACHE, name);
  const lock = `${target}.lock`;
  while (!existsSync(target)) {
    if (!takeLock(lock)) {
      await new Promise((done) => setTimeout(done, POLL_MS));
      continue;
    }
    try {
      if (!existsSync(target)) {
        const building = `${target}.${process.pid}.tmp`;
        try {
          await make(building);
          renameSync(building, target);
        } finally {
          rmSync(building, { recursive: true, force: true });
        }
      }
    } finally {
      rmSync(lock, { force: true });
    }
  }
  const now = new Date();
  utimesSync(target, now, now); // in use: not "unused for an hour"
  removeUnused(name);
  return target;
}

function takeLock(lock: string): boolean {
  try {
    const fd = openSync(lock, 'wx');
    writeSync(fd, String(process.pid));
    closeSync(fd);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    if (lockAbandoned(lock)) rmSync(lock, { force: true });
    return false;
  }
}

/** The fork holding the lock is gone (or never wrote its process id). */
function lockAbandoned(lock: string): boolean {
  try {
    const pid = Number(readFileSync(lock, 'utf8'));
    if (!(pid > 0)) return Date.now() - statSync(lock).mtimeMs > ABANDONED_LOCK_MS;
    process.kill(pid, 0); // throws ESRCH when the process is gone
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

/** Deletes the other entries (and leftovers of killed builds) unused for an hour. */
function removeUnused(keep: string): void {
  for (const entry of readdirSync(CACHE)) {
    if (entry === keep || entry.endsWith('.lock')) continue;
    const path = join(CACHE, entry);
    try {
      if (Date.now() - statSync(path).mtimeMs > UNUSED_FOR_MS) rmSync(path, { recursive: true, force: true });
    } catch {
      // Another fork removed it first.
    }
  }
}
