/**
 * Indexes for the API's read paths (issue 8: uncached latency on the full-scale dataset). Each lets
 * a per-request query read only an index instead of whole table rows:
 *
 * - name searches (`q`) count their matches over (filter, search key) alone — a LIKE on the index
 *   entry, no row fetched: banks (active institutions), advisers (business or legal name), 13F
 *   managers of a quarter;
 * - `/api/stats` groups a quarter's managers by state from (quarter, state) in index order, without
 *   reading the rows or sorting them for the GROUP BY.
 *
 * All are plain B-tree indexes on existing columns, the same on SQLite and PostgreSQL.
 */
import type { Kysely } from 'kysely';

type Db = Kysely<unknown>;

const INDEXES: readonly { name: string; table: string; columns: string[] }[] = [
  { name: 'institutions_active_name', table: 'institutions', columns: ['active', 'search_name'] },
  { name: 'advisers_names', table: 'advisers', columns: ['search_name', 'search_legal_name'] },
  { name: 'manager_quarters_name', table: 'manager_quarters', columns: ['quarter', 'search_name'] },
  { name: 'manager_quarters_state', table: 'manager_quarters', columns: ['quarter', 'state'] },
];

export async function up(db: Db): Promise<void> {
  for (const { name, table, columns } of INDEXES) {
    await db.schema.createIndex(name).on(table).columns(columns).execute();
  }
}

export async function down(db: Db): Promise<void> {
  for (const { name } of INDEXES) await db.schema.dropIndex(name).execute();
}
