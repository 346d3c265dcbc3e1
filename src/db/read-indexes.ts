/**
 * In-memory read indexes: structures the read side builds from the database on first use and keeps
 * for the dataset version they were built from (a load empties them), so that a heavy answer is
 * computed from memory instead of scanning rows per request: a metric's peer values per report date
 * and every bank's own (banking/peers/history-index.ts), one report date's call reports
 * (banking/financials-snapshot.ts), a field's industry aggregates, every report date
 * (banking/aggregates.queries.ts), the security search (holdings/security-search.ts), a quarter's
 * holder-change counts per security (holdings/holder-summaries.ts), a security's holders in a quarter
 * (holdings/security-holders.ts), a security's packed positions in a quarter
 * (holdings/portfolios.queries.ts).
 * All of them together stay within READ_INDEX_MAX_BYTES, the least recently used dropped first; 0
 * turns them off (every answer then reads the database).
 */
import type { Kysely } from 'kysely';
import { perVersion } from './per-version.js';
import type { Database } from './tables.js';

export interface Sized {
  /** Bytes the structure holds (approximately). */
  readonly bytes: number;
}

/** The indexes built in a dataset version, least recently used first, and the bytes of those built. */
interface Held {
  readonly entries: Map<string, Promise<Sized>>;
  readonly sizes: Map<string, number>;
  bytes: number;
}

const held = perVersion(async (): Promise<Held> => ({ entries: new Map(), sizes: new Map(), bytes: 0 }));

/**
 * The index named `key`, built by `build` on first use in the dataset version; null when
 * `maxBytes` is 0. Concurrent first uses share one build; a failed build is not kept. Keeping the
 * bound costs O(1) per use however many indexes are held (a holders index per security adds many).
 */
export async function readIndex<T extends Sized>(
  db: Kysely<Database>,
  key: string,
  maxBytes: number,
  build: () => Promise<T>,
): Promise<T | null> {
  if (maxBytes <= 0) return null;
  const store = await held(db);
  const known = store.entries.get(key) as Promise<T> | undefined;
  if (known) {
    store.entries.delete(key);
    store.entries.set(key, known);
    return known;
  }
  const index = build();
  store.entries.set(key, index);
  index.catch(() => {
    if (store.entries.get(key) === index) store.entries.delete(key);
  });
  const built = await index;
  if (store.entries.get(key) !== index || store.sizes.has(key)) return built;
  if (built.bytes > maxBytes) {
    // Larger than the whole bound: answers this request, kept by nobody.
    store.entries.delete(key);
    return built;
  }
  store.sizes.set(key, built.bytes);
  store.bytes += built.bytes;
  // Least recently used first; indexes still being built have no size yet and stay.
  for (const name of store.entries.keys()) {
    if (store.bytes <= maxBytes) break;
    const size = store.sizes.get(name);
    if (size === undefined) continue;
    store.entries.delete(name);
    store.sizes.delete(name);
    store.bytes -= size;
  }
  return built;
}
