/**
 * Name search that behaves the same on SQLite and PostgreSQL: names are stored with a search key
 * (lower case, accents stripped) and `q` is matched as a literal substring of that key.
 */
import { sql } from 'kysely';

export function searchKey(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase();
}

/** `%key%` with LIKE wildcards escaped; use with `escape '\'`. */
export function containsPattern(q: string): string {
  return `%${searchKey(q).replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** A portable `column LIKE pattern ESCAPE '\'` condition for a search-key column. */
export function matchesSearch(column: string, q: string) {
  return sql<boolean>`${sql.ref(column)} like ${containsPattern(q)} escape '\\'`;
}
