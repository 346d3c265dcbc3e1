/**
 * Values the read side derives from the database once per dataset version: every load bumps the
 * version, so the first use after a load computes them again. For small answers that many requests
 * need whole, such as the loaded quarters or the security master's names. The serving layer tells
 * which version each database handle serves (`servesVersions`); used on a handle without one (the
 * CLI, a test calling a query function directly), the value is computed every time. A failed
 * computation is not kept.
 */
import type { Kysely } from 'kysely';
import type { Database } from './tables.js';

type Db = Kysely<Database>;

const versionOf = new WeakMap<Db, () => number>();

/** Registers the function giving the dataset version `db` serves now. */
export function servesVersions(db: Db, current: () => number): void {
  versionOf.set(db, current);
}

export function perVersion<T>(compute: (db: Db) => Promise<T>): (db: Db) => Promise<T> {
  const memo = new WeakMap<Db, { version: number; value: Promise<T> }>();
  return (db) => {
    const current = versionOf.get(db);
    if (!current) return compute(db);
    const version = current();
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
