/**
 * The rows of some tables, each table's rows in one canonical order (by their JSON text), so two
 * derivations of the same raw data compare table for table whatever order the database returns.
 * Bytes (the packed columns) become hex: one string to sort by and compare, not an object per byte.
 */
import { sql } from 'kysely';
import type { DbHandle } from '../../src/db/connect.js';

/** Every table the holdings derivation (deriveHoldings) fills (it also sets `advisers.cik`). */
// biome-ignore format: the list reads best as a block
export const DERIVED_HOLDINGS_TABLES = ['crowded_days', 'manager_portfolios', 'security_positions', 'security_latest',
  'filing_progress', 'filing_days', 'manager_changes', 'changes_by_manager', 'security_changes', 'holders_by_security',
  'security_splits', 'split_spans', 'smart_money', 'smart_money_summary', 'holdings_quarters', 'security_quarters',
  'manager_quarters', 'applied_filings_13f', 'managers', 'securities'] as const;

export async function snapshotTables(
  handle: DbHandle,
  tables: readonly string[],
): Promise<Record<string, unknown[]>> {
  const out: Record<string, unknown[]> = {};
  for (const table of tables) {
    const { rows } = await sql.raw(`select * from ${table}`).execute(handle.db);
    const keyed = rows.map((row) => {
      const plain = Object.fromEntries(
        Object.entries(row as Record<string, unknown>).map(([column, value]) => [
          column,
          value instanceof Uint8Array ? Buffer.from(value).toString('hex') : value,
        ]),
      );
      return [JSON.stringify(plain), plain] as const;
    });
    keyed.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    out[table] = keyed.map(([, row]) => row);
  }
  return out;
}
