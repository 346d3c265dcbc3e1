import type { Kysely, Selectable } from 'kysely';
import type { Database } from '../db/tables.js';
import { money } from './params.js';
import type { SmartMoneyTable } from './tables.js';

export type SmartMoneyRow = Selectable<SmartMoneyTable>;

/** Equity positions only, by manager_count then value descending (index security_quarters_crowded). */
export async function crowded(db: Kysely<Database>, quarter: string, limit: number) {
  const rows = await db
    .selectFrom('security_quarters')
    .select(['cusip', 'issuer', 'title_of_class', 'equity_manager_count', 'equity_value', 'equity_shares'])
    .where('quarter', '=', quarter)
    .where('equity_manager_count', '>', 0)
    .orderBy('equity_manager_count', 'desc')
    .orderBy('equity_value', 'desc')
    .orderBy('cusip')
    .limit(limit)
    .execute();
  return rows.map((row) => ({
    cusip: row.cusip,
    issuer: row.issuer,
    title_of_class: row.title_of_class,
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
    .selectFrom('smart_money')
    .selectAll()
    .where('grp', '=', grp)
    .where('rank', '<=', limit)
    .orderBy('rank')
    .execute();
}
