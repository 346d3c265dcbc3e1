/**
 * `security_positions` for a database derived before the table existed (`regdata migrate`), from
 * its packed portfolios.
 */
import type { DbHandle } from '../../../../../db/connect.js';
import { unpackPortfolio } from '../../../../../holdings/portfolio-pack.js';
import { insertPackedRows } from './background-packing.js';
import type { Executor } from './executor.js';
import { packSecurityPositions, SecurityPositions } from './security-positions.js';

const MANAGERS_PER_READ = 500;

/**
 * Every quarter's security positions when none is stored but manager quarters are packed: a database
 * derived before migration 0016 (the packed portfolios come from 0012's backfill at the latest).
 * Returns how many quarters it wrote.
 */
export async function backfillSecurityPositions(handle: DbHandle, executor: Executor): Promise<number> {
  const stored = await executor.selectFrom('security_positions').select('cusip').limit(1).execute();
  if (stored.length > 0) return 0;
  const quarters = await executor.selectFrom('manager_portfolios').select('quarter').distinct().execute();
  for (const { quarter } of quarters) {
    const managers = await executor
      .selectFrom('manager_portfolios')
      .select('cik')
      .where('quarter', '=', quarter)
      .orderBy('cik')
      .execute();
    const gathered = new SecurityPositions();
    const securities = new Map<string, number>();
    for (let i = 0; i < managers.length; i += MANAGERS_PER_READ) {
      const ciks = managers.slice(i, i + MANAGERS_PER_READ).map((m) => m.cik);
      const rows = await executor
        .selectFrom('manager_portfolios')
        .select(['cik', 'positions'])
        .where('quarter', '=', quarter)
        .where('cik', 'in', ciks)
        .orderBy('cik')
        .execute();
      for (const row of rows) {
        const pack = unpackPortfolio(row.positions);
        gathered.startManager(row.cik);
        for (let j = 0; j < pack.count; j++) {
          const cusip = pack.cusip(j);
          let security = securities.get(cusip);
          if (security === undefined) {
            security = securities.size;
            securities.set(cusip, security);
          }
          gathered.add(security, pack.codes[j] as number, pack.values[j] as number, pack.shares[j] as number);
        }
      }
    }
    await insertPackedRows(
      handle,
      executor,
      packSecurityPositions(gathered.take(quarter, [...securities.keys()])),
    );
  }
  return quarters.length;
}
