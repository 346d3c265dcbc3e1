import type { Kysely, Selectable } from 'kysely';
import type { Database } from '../db/tables.js';
import { money } from './params.js';
import type { SmartMoneyTable } from './tables.js';

export type SmartMoneyRow = Selectable<SmartMoneyTable> & { ticker: string | null };

/** Equity positions only, by manager_count then value descending (index security_quarters_crowded). */
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

export async function smartMoneySummary(db: Kysely<Database>) {
  return db.selectFrom('smart_money_summary').selectAll().where('id', '=', 1).executeTakeFirst();
}

export async function smartMoneyGroup(db: Kysely<Database>, grp: string, limit: number) {
  return db
    .selectFrom('smart_money as m')
    .leftJoin('securities as s', 's.cusip', 'm.cusip')
    .selectAll('m')
    .select('s.ticker')
    .where('m.grp', '=', grp)
    .where('m.rank', '<=', limit)
    .orderBy('m.rank')
    .execute();
}
