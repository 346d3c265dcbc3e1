/**
 * In-memory read indexes: structures the read side builds from the database on first use and keeps
 * for the dataset version they were built from (a load empties them), so that a heavy answer is
 * computed from memory instead of scanning rows per request: a metric's peer values per report date
 * and every bank's own (banking/peers/history-index.ts), one report date's call reports
 * (banking/financials-snapshot.ts), the security search (holdings/security-search.ts), a quarter's
 * holder-change counts per security (holdings/holder-summaries.ts).
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

/** The indexes built in a dataset version, least recently used first. */
const held = perVersion(async () => new Map<string, Promise<Sized>>());

/**
 * The index named `key`, built by `build` on first use in the dataset version; null when
 * `maxBytes` is 0. Concurrent first uses share one build; a failed build is not kept.
 */
export async function readIndex<T extends Sized>(
  db: Kysely<Database>,
  key: string,
  maxBytes: number,
  build: () => Promise<T>,
): Promise<T | null> {
  if (maxBytes <= 0) return null;
  const indexes = await held(db);
  const known = indexes.get(key) as Promise<T> | undefined;
  if (known) {
    indexes.delete(key);
    indexes.set(key, known);
    return known;
  }
  const index = build();
  indexes.set(key, index);
  index.catch(() => indexes.delete(key));
  const built = await index;
  // Newest first, keep while the bound allows; the rest go.
  let bytes = 0;
  for (const [name, entry] of [...indexes].reverse()) {
    const size = (await entry.catch(() => null))?.bytes ?? 0;
    if (bytes + size > maxBytes) indexes.delete(name);
    else bytes += size;
  }
  return built;
}
