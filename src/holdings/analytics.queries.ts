import type { Kysely, Selectable } from 'kysely';
import { perVersion } from '../db/per-version.js';
import type { Database } from '../db/tables.js';
import { money } from './params.js';
import { withSecurityNames } from './security-catalogue.js';
import type { SmartMoneyTable } from './tables.js';

export type SmartMoneyRow = Selectable<SmartMoneyTable> & { ticker: string | null };

/**
 * Equity positions only, by manager_count then value descending: the order and columns of index
 * security_quarters_crowded (migration 0018), so the page is read from the index alone; tickers come
 * from the security master in memory (security-catalogue.ts) instead of a join, which cost as much
 * again as the page itself (~400 µs of ~750 for 500 rows).
 */
export async function crowded(db: Kysely<Database>, quarter: string, limit: number) {
  const rows = await db
    .selectFrom('security_quarters')
    // biome-ignore format: column list
    .select(['cusip', 'issuer', 'title_of_class', 'equity_manager_count', 'equity_value', 'equity_shares'])
    .where('quarter', '=', quarter)
    .where('equity_manager_count', '>', 0)
    .orderBy('equity_manager_count', 'desc')
    .orderBy('equity_value', 'desc')
    .orderBy('cusip')
    .limit(limit)
    .execute();
  const { data } = await withSecurityNames(db, (catalogue) => {
    let missing = 0;
    const data = rows.map((row) => {
      const id = catalogue.idOf(row.cusip);
      if (id < 0) missing += 1;
      return {
        cusip: row.cusip,
        issuer: row.issuer,
        title_of_class: row.title_of_class,
        ticker: id < 0 ? null : catalogue.entry(id).ticker,
        manager_count: Number(row.equity_manager_count),
        total_value: money(row.equity_value),
        total_shares: Number(row.equity_shares),
      };
    });
    return { data, missing };
  });
  return data;
}

/** The largest `limit` /api/smart-money accepts: the groups are read this deep once per version. */
export const SMART_MONEY_MAX = 100;

async function smartMoneyGroup(db: Kysely<Database>, grp: string): Promise<SmartMoneyRow[]> {
  return db
    .selectFrom('smart_money as m')
    .leftJoin('securities as s', 's.cusip', 'm.cusip')
    .selectAll('m')
    .select('s.ticker')
    .where('m.grp', '=', grp)
    .where('m.rank', '<=', SMART_MONEY_MAX)
    .orderBy('m.rank')
    .execute();
}

/**
 * The summary and the three groups' first SMART_MONEY_MAX rows, read once per dataset version (the
 * groups are derived at load time; a request takes the first `limit` of each). Undefined summary:
 * fewer than two quarters loaded.
 */
export const smartMoney = perVersion(async (db) => {
  const [summary, entries, inflows, exits] = await Promise.all([
    db.selectFrom('smart_money_summary').selectAll().where('id', '=', 1).executeTakeFirst(),
    smartMoneyGroup(db, 'new_entries'),
    smartMoneyGroup(db, 'biggest_inflows'),
    smartMoneyGroup(db, 'top_exits'),
  ]);
  return { summary, entries, inflows, exits };
});
