import type { Kysely } from 'kysely';
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

/** Tier bounds are USD; manager values are thousands of USD. */
export async function aumTiers(db: Kysely<Database>, quarter: string) {
  const values = await db
    .selectFrom('manager_quarters')
    .select('total_value')
    .where('quarter', '=', quarter)
    .execute();
  return AUM_TIERS.map(({ tier, min, max }) => {
    const inTier = values.filter(
      (v) => v.total_value * 1000 >= min && (max === null || v.total_value * 1000 < max),
    );
    return {
      tier,
      min_value: min / 1000,
      max_value: max === null ? null : max / 1000,
      managers: inTier.length,
      total_value: money(inTier.reduce((sum, v) => sum + v.total_value, 0)),
    };
  });
}
