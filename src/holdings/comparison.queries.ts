/** Overlap and compare: the latest quarter all managers filed, and their holdings per CUSIP. */
import { type Kysely, sql } from 'kysely';
import type { Database } from '../db/tables.js';
import { notFound } from '../http/problem.js';
import { money } from './params.js';

/** 404 naming every CIK that never filed a 13F. */
export async function requireManagers(db: Kysely<Database>, ciks: readonly string[]): Promise<void> {
  const rows = await db.selectFrom('managers').select('cik').where('cik', 'in', ciks).execute();
  const known = new Set(rows.map((row) => row.cik));
  const unknown = ciks.filter((cik) => !known.has(cik));
  if (unknown.length > 0) throw notFound(`No 13F filer with CIK ${unknown.join(', ')}`);
}

export async function latestCommonQuarter(db: Kysely<Database>, ciks: readonly string[]): Promise<string> {
  const row = await db
    .selectFrom('manager_quarters')
    .select('quarter')
    .where('cik', 'in', ciks)
    .groupBy('quarter')
    .having(sql`count(*)`, '=', ciks.length)
    .orderBy('quarter', 'desc')
    .limit(1)
    .executeTakeFirst();
  if (!row) throw notFound(`There is no quarter in which all of ${ciks.join(', ')} filed a 13F-HR`);
  return row.quarter;
}

export interface ManagerHoldings {
  cik: string;
  name: string;
  position_count: number;
  total_value: number;
  /** CUSIP → the manager's positions in it, summed. */
  byCusip: Map<string, { issuer: string; value: number; shares: number }>;
}

export async function holdingsByCusip(
  db: Kysely<Database>,
  ciks: readonly string[],
  quarter: string,
): Promise<ManagerHoldings[]> {
  const [managers, positions] = await Promise.all([
    db
      .selectFrom('manager_quarters')
      .select(['cik', 'name', 'position_count', 'total_value'])
      .where('quarter', '=', quarter)
      .where('cik', 'in', ciks)
      .execute(),
    db
      .selectFrom('positions as p')
      .innerJoin('securities as s', 's.cusip', 'p.cusip')
      .select(['p.cik', 'p.cusip', 's.issuer', 'p.value', 'p.shares'])
      .where('p.quarter', '=', quarter)
      .where('p.cik', 'in', ciks)
      .execute(),
  ]);
  const byCik = new Map<string, ManagerHoldings>(
    managers.map((m) => [
      m.cik,
      {
        cik: m.cik,
        name: m.name,
        position_count: Number(m.position_count),
        total_value: money(m.total_value),
        byCusip: new Map(),
      },
    ]),
  );
  for (const p of positions) {
    const holdings = byCik.get(p.cik)?.byCusip;
    if (!holdings) continue;
    const current = holdings.get(p.cusip) ?? { issuer: p.issuer, value: 0, shares: 0 };
    current.value += Number(p.value);
    current.shares += Number(p.shares);
    holdings.set(p.cusip, current);
  }
  return ciks.map((cik) => byCik.get(cik) as ManagerHoldings);
}

export function managerSummary(m: ManagerHoldings) {
  return { cik: m.cik, name: m.name, position_count: m.position_count, total_value: m.total_value };
}
