import type { Kysely, Selectable } from 'kysely';
import { perVersion } from '../db/per-version.js';
import type { Database } from '../db/tables.js';
import { money } from './params.js';
import type { SmartMoneyTable } from './tables.js';

export type SmartMoneyRow = Selectable<SmartMoneyTable> & { ticker: string | null };

/** Equity positions only, by manager_count then value descending: the order and columns of index security_quarters_crowded (migration 0018), so the page is read from the index alone. */
export async function crowded(db: Kysely<Database>, quarter: string, limit: number) {
  const rows = await db
    .selectFrom('security_quarters as q')
    .leftJoin('securities as s', 's.cusip', 'q.cusip')
    // biome-ignore format: column list
    .select([
    'q.cusip',
    'q.issuer',
    'q.title_of_class',
    's.ticker',
    'q.equity_manager_count',
    'q.equity_value',
    'q.equity_shares',
  ])
    .where('q.quarter', '=', quarter)
    .where('q.equity_manager_count', '>', 0)
    .orderBy('q.equity_manager_count', 'desc')
    .orderBy('q.equity_value', 'desc')
    .orderBy('q.cusip')
    .limit(limit)
    .execute();
  return rows.map((row) => ({
    cusip: row.cusip,
    issuer: row.issuer,
    title_of_class: row.title_of_class,
    ticker: row.ticker ?? null,
    manager_count: Number(row.equity_manager_count),
    total_value: money(row.equity_value),
    total_shares: Number(row.equity_shares),
  }));
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
