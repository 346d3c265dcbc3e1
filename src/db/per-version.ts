/**
 * A value the read side derives from the database once per dataset version (every load bumps the
 * version, so the next use after a load recomputes it): for lookups that every request of a kind
 * needs whole, such as the security master's names. A failed computation is not kept.
 */
import type { Kysely } from 'kysely';
import type { Database } from './tables.js';

export type PerVersion<T> = (db: Kysely<Database>, version: number) => Promise<T>;

export function perVersion<T>(compute: (db: Kysely<Database>) => Promise<T>): PerVersion<T> {
  const memo = new WeakMap<Kysely<Database>, { version: number; value: Promise<T> }>();
  return (db, version) => {
    const known = memo.get(db);
    if (known?.version === version) return known.value;
    const value = compute(db);
    memo.set(db, { version, value });
    value.catch(() => {
      if (memo.get(db)?.value === value) memo.delete(db);
    });
    return value;
  };
}
