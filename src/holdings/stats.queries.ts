import { type Kysely, sql } from 'kysely';
import type { Database } from '../db/tables.js';
import { money } from './params.js';
import { AUM_TIERS } from './stats.schemas.js';

export async function quarterSummary(db: Kysely<Database>, quarter: string) {
  return db
    .selectFrom('holdings_quarters')
    .selectAll()
    .where('quarter', '=', quarter)
    .executeTakeFirstOrThrow();
}

export async function countAdvisers(db: Kysely<Database>): Promise<number> {
  const row = await db
    .selectFrom('advisers')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function stateDistribution(db: Kysely<Database>, quarter: string) {
  const rows = await db
    .selectFrom('manager_quarters')
    .select(['state', (eb) => eb.fn.countAll<number>().as('managers')])
    .where('quarter', '=', quarter)
    .where('state', 'is not', null)
    .groupBy('state')
    .orderBy('managers', 'desc')
    .orderBy('state')
    .execute();
  return rows.map((row) => ({ state: row.state as string, managers: Number(row.managers) }));
}

/**
 * Managers and their summed value per AUM tier. Tier bounds are USD; manager values are thousands of
 * USD, so a manager is in a tier when total_value × 1000 is within its bounds. Each tier is one range
 * of the (quarter, total_value) index, read alone: the bounds in thousands, widened by 1 so that the
 * exact × 1000 test (kept as written) decides at the edges.
 */
export async function aumTiers(db: Kysely<Database>, quarter: string) {
  const scaled = sql<number>`${sql.ref('total_value')} * 1000`;
  const tiers = AUM_TIERS.map(({ min, max }, i) => {
    let query = db
      .selectFrom('manager_quarters')
      .select((eb) => [
        sql.lit(i).as('tier'),
        eb.fn.countAll<number>().as('managers'),
        eb.fn.sum<number | null>('total_value').as('total_value'),
      ])
      .where('quarter', '=', quarter)
      .where('total_value', '>=', min / 1000 - 1)
      .where(scaled, '>=', min);
    if (max !== null) query = query.where('total_value', '<', max / 1000 + 1).where(scaled, '<', max);
    return query;
  });
  const [first, ...rest] = tiers;
  const rows = await rest
    .reduce((union, tier) => union.unionAll(tier), first as (typeof tiers)[number])
    .execute();
  const byTier = new Map(rows.map((row) => [Number(row.tier), row]));
  return AUM_TIERS.map(({ tier, min, max }, i) => {
    const row = byTier.get(i);
    return {
      tier,
      min_value: min / 1000,
      max_value: max === null ? null : max / 1000,
      managers: Number(row?.managers ?? 0),
      total_value: money(row?.total_value ?? 0),
    };
  });
}
