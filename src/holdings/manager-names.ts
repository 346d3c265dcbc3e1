/**
 * Every manager's name per quarter (as its resolved filing for that quarter gives it), in memory
 * once per dataset version: a holders page names ~50 managers, and reading each name from
 * `manager_quarters` touched ~50 more table pages per request. ~40,000 names at full scale.
 */
import type { Kysely } from 'kysely';
import { perVersion } from '../db/per-version.js';
import type { Database } from '../db/tables.js';

type NamesByQuarter = Map<string, Map<string, string>>;

const names = perVersion(async (db): Promise<NamesByQuarter> => {
  const rows = await db.selectFrom('manager_quarters').select(['quarter', 'cik', 'name']).execute();
  const byQuarter: NamesByQuarter = new Map();
  for (const { quarter, cik, name } of rows) {
    let quarterNames = byQuarter.get(quarter);
    if (!quarterNames) {
      quarterNames = new Map();
      byQuarter.set(quarter, quarterNames);
    }
    quarterNames.set(cik, name);
  }
  return byQuarter;
});

/** The managers' names in `quarter`, by CIK. */
export async function managerNames(
  db: Kysely<Database>,
  quarter: string,
): Promise<ReadonlyMap<string, string>> {
  return (await names(db)).get(quarter) ?? new Map();
}
