import type { Kysely } from 'kysely';
import { describe, expect, it } from 'vitest';
import { servesVersions } from '../../src/db/per-version.js';
import { readIndex } from '../../src/db/read-indexes.js';
import type { Database } from '../../src/db/tables.js';

/** A database handle only as the key the read indexes are kept under, serving version `version()`. */
function servingHandle(version: () => number): Kysely<Database> {
  const db = {} as Kysely<Database>;
  servesVersions(db, version);
  return db;
}

describe('read indexes', () => {
  it('keep the most recently used within the byte bound and build each once per dataset version', async () => {
    let version = 1;
    const db = servingHandle(() => version);
    const builds: string[] = [];
    const get = (key: string, bytes: number) =>
      readIndex(db, key, 100, async () => {
        builds.push(key);
        return { key, bytes };
      });
    await get('a', 40);
    await get('b', 40);
    expect((await get('a', 40))?.key).toBe('a');
    expect(builds).toEqual(['a', 'b']);
    // c needs room: b, least recently used, goes; a stays.
    await get('c', 40);
    await get('a', 40);
    await get('b', 40);
    expect(builds).toEqual(['a', 'b', 'c', 'b']);
    // An index larger than the whole bound answers its request and is kept by nobody, evicting nothing.
    expect((await get('huge', 500))?.bytes).toBe(500);
    await get('huge', 500);
    expect(builds.filter((key) => key === 'huge')).toHaveLength(2);
    await get('b', 40);
    expect(builds.filter((key) => key === 'b')).toHaveLength(2);
    // A new dataset version builds again.
    version = 2;
    await get('b', 40);
    expect(builds.filter((key) => key === 'b')).toHaveLength(3);
  });

  it('share one build between concurrent first uses, keep no failed build and are off at 0 bytes', async () => {
    const db = servingHandle(() => 1);
    let builds = 0;
    const build = async () => {
      builds++;
      await new Promise((done) => setTimeout(done, 10));
      return { bytes: 1 };
    };
    const [first, second] = await Promise.all([readIndex(db, 'x', 10, build), readIndex(db, 'x', 10, build)]);
    expect(first).toBe(second);
    expect(builds).toBe(1);
    let failures = 0;
    const failing = async () => {
      failures++;
      throw new Error('no rows');
    };
    await expect(readIndex(db, 'y', 10, failing)).rejects.toThrow('no rows');
    await expect(readIndex(db, 'y', 10, failing)).rejects.toThrow('no rows');
    expect(failures).toBe(2);
    expect(await readIndex(db, 'z', 0, build)).toBeNull();
    expect(builds).toBe(1);
  });
});
