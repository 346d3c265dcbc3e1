/**
 * Fixed-shape queries compiled once per database. Kysely builds and compiles a query's tree on every
 * call (~13 µs for a four-condition select, measured; the statement itself costs ~11 µs on SQLite),
 * which is a fifth of a small answer that runs eight of them. A query whose SQL text never depends
 * on its arguments (no IN list of varying length, no column chosen by an argument) is built once
 * with stand-ins for its arguments; each call then sends the same text with the arguments in the
 * stand-ins' places. Arguments are plain values (strings, numbers, bigints) compared with a column
 * or used as a LIMIT: Kysely writes some other values into the SQL text itself (null and booleans
 * after `is`, objects as column maps), so those are refused at every call. The stand-ins are
 * checked: each must come back as exactly one parameter, unchanged, and nowhere else (not in the
 * SQL text, not inside another parameter), so a builder that uses an argument any other way
 * (`${name}%`, `cert + 1`, `sql.lit(x)`) fails on its first call instead of answering wrong.
 */
import { type Compilable, CompiledQuery, type Kysely } from 'kysely';
import type { Database } from './tables.js';

interface Compiled {
  readonly sql: string;
  /** Each parameter: the index of the argument it stands for, or the constant the builder put there. */
  readonly slots: readonly ({ readonly arg: number } | { readonly value: unknown })[];
}

const STAND_IN = '\u0000regdata-argument-';
const standIn = (index: number) => `${STAND_IN}${index}\u0000`;

function compileOnce(query: CompiledQuery, arity: number): Compiled {
  const argOf = new Map(Array.from({ length: arity }, (_, i) => [standIn(i), i]));
  const seen = new Array<number>(arity).fill(0);
  let stray = query.sql.includes(STAND_IN);
  const slots = query.parameters.map((value) => {
    const arg = typeof value === 'string' ? argOf.get(value) : undefined;
    if (arg === undefined) {
      if (typeof value === 'string' && value.includes(STAND_IN)) stray = true;
      return { value };
    }
    seen[arg] = (seen[arg] ?? 0) + 1;
    return { arg };
  });
  if (stray || seen.some((count) => count !== 1)) {
    throw new Error(`prepared(): every argument must be bound exactly once as a value in: ${query.sql}`);
  }
  return { sql: query.sql, slots };
}

const PLAIN = new Set(['string', 'number', 'bigint']);

/**
 * `build` turned into a function running the same query with compiled SQL kept per database
 * (SQLite and PostgreSQL differ in their placeholders). Its rows are what `execute()` returns.
 */
export function prepared<Args extends readonly unknown[], Row>(
  build: (db: Kysely<Database>, ...args: Args) => Compilable<Row>,
): (db: Kysely<Database>, ...args: Args) => Promise<Row[]> {
  const byDatabase = new WeakMap<Kysely<Database>, Compiled>();
  return async (db, ...args) => {
    for (const arg of args) {
      if (!PLAIN.has(typeof arg))
        throw new TypeError(`prepared(): arguments are strings or numbers, not ${arg}`);
    }
    let compiled = byDatabase.get(db);
    if (!compiled) {
      const standIns = args.map((_, i) => standIn(i)) as unknown as Args;
      compiled = compileOnce(build(db, ...standIns).compile(), args.length);
      byDatabase.set(db, compiled);
    }
    const parameters = compiled.slots.map((slot) => ('arg' in slot ? args[slot.arg] : slot.value));
    const result = await db.executeQuery<Row>(CompiledQuery.raw(compiled.sql, parameters));
    return result.rows;
  };
}
