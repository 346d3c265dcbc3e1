/**
 * The response cache's memory: serialised bodies (and their gzip/brotli variants, compressed once)
 * in an LRU bounded in bytes, and an alias table from raw URLs already seen to their normalised
 * key. The cache hooks (cache.ts) and the front door (cache-front.ts) read it; both tables are
 * emptied when the dataset version changes, and when the UTC day does (answers of the day, such as
 * freshness, are keyed by it: a URL's alias must not lead to yesterday's entry).
 */
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { LRUCache } from 'lru-cache';
import type { RawHead } from './cache-head.js';
import { type Coding, etagFor } from './cache-keys.js';
import type { RouteSlot } from './request-meter.js';

/** Bodies smaller than this are not worth compressing (SPEC §1: "over ~1 KB"). */
export const COMPRESSION_THRESHOLD = 1024;
const ALIAS_BYTES = 8 * 1024 * 1024;
const DAY_MS = 86_400_000;

export interface Entry {
  readonly body: Buffer;
  readonly type: string;
  readonly disposition: string | undefined;
  readonly coding: Coding;
  readonly etag: string;
  /** The headers this representation went out with through Fastify; null until it has. */
  head: RawHead | null;
}

/** What a raw URL already seen stands for: its normalised key and its route's metrics slot. */
export interface Alias {
  readonly key: string;
  readonly slot: RouteSlot;
}

function compress(body: Buffer, coding: Coding): Buffer {
  if (coding === 'gzip') return gzipSync(body, { level: 6 });
  return brotliCompressSync(body, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: 5,
      [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
    },
  });
}

/** The representation of `identity` in `coding`: itself when identity or too small to compress. */
export function variantOf(identity: Entry, key: string, version: number, coding: Coding): Entry {
  if (coding === 'identity' || identity.body.length < COMPRESSION_THRESHOLD) return identity;
  const body = compress(identity.body, coding);
  return { ...identity, body, coding, etag: etagFor(key, version, coding), head: null };
}

export class ResponseStore {
  private readonly entries: LRUCache<string, Entry>;
  private readonly aliases = new LRUCache<string, Alias>({
    maxSize: ALIAS_BYTES,
    sizeCalculation: (alias, url) => url.length + alias.key.length + 50,
  });

  /** The UTC day (days since the epoch) the stored answers were made on. */
  private day = Math.floor(Date.now() / DAY_MS);

  constructor(maxBytes: number) {
    this.entries = new LRUCache<string, Entry>({
      maxSize: maxBytes,
      maxEntrySize: Math.max(1, Math.floor(maxBytes / 4)),
      // The overhead covers the key, the entry and its two recorded header arrays.
      sizeCalculation: (entry, key) => entry.body.length + key.length + 600,
    });
  }

  /** The entry for `key` in `coding` if stored, without compressing anything (the front door's). */
  find(key: string, coding: Coding): Entry | undefined {
    const found = this.entries.get(`${key}\n${coding}`);
    if (found || coding === 'identity') return found;
    const identity = this.entries.get(`${key}\nidentity`);
    return identity && identity.body.length < COMPRESSION_THRESHOLD ? identity : undefined;
  }

  /** The entry for `key` in `coding`, compressing the stored identity body once if need be. */
  lookup(key: string, coding: Coding, version: number): Entry | undefined {
    const found = this.entries.get(`${key}\n${coding}`);
    if (found || coding === 'identity') return found;
    const identity = this.entries.get(`${key}\nidentity`);
    if (!identity) return undefined;
    const variant = variantOf(identity, key, version, coding);
    if (variant !== identity) this.entries.set(`${key}\n${coding}`, variant);
    return variant;
  }

  put(key: string, entry: Entry): void {
    this.entries.set(`${key}\n${entry.coding}`, entry);
  }

  alias(url: string, key: string, slot: RouteSlot): void {
    this.aliases.set(url, { key, slot });
  }

  /** Every lookup of a request starts here (both paths): a new day empties the store first. */
  aliasOf(url: string): Alias | undefined {
    const day = Math.floor(Date.now() / DAY_MS);
    if (day !== this.day) {
      this.day = day;
      this.clear();
    }
    return this.aliases.get(url);
  }

  clear(): void {
    this.entries.clear();
    this.aliases.clear();
  }

  bytes(): number {
    return this.entries.calculatedSize;
  }
}
