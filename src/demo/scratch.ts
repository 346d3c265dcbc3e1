/**
 * The scratch file of a side-by-side demo build (side-by-side.ts): beside the database (a temporary
 * directory may be small, or memory), named after the process and thread that write it, and removed
 * by the next demo build if that process was killed before its own cleanup.
 */
import { readdirSync, rmSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { threadId } from 'node:worker_threads';

const prefix = (database: string) => `${database}.demo-banking-`;

/** This thread's scratch file (buildDemo has removed any left by an earlier process of this pid). */
export function scratchPath(database: string): string {
  return `${prefix(database)}${process.pid}-${threadId}`;
}

export function removeScratch(path: string): void {
  for (const suffix of ['', '-journal', '-wal', '-shm']) rmSync(`${path}${suffix}`, { force: true });
}

/**
 * Removes the scratch files whose process is gone (killed before its own cleanup), and this thread's
 * own name, which is not in use before a build begins: a container's process is often pid 1 every
 * time, so a killed build's file can carry the pid of the process looking at it.
 */
export function removeAbandonedScratch(database: string): void {
  const start = basename(prefix(database));
  for (const name of readdirSync(dirname(database))) {
    if (!name.startsWith(start)) continue;
    const [pid, thread] = name.slice(start.length).split(/[-.]/).map(Number);
    const mine = pid === process.pid;
    if ((mine && thread === threadId) || (!mine && !isRunning(pid as number)))
      rmSync(join(dirname(database), name), { force: true });
  }
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as { code?: string }).code === 'EPERM';
  }
}
