/** Overlap and compare: the latest quarter all managers filed, and their holdings per CUSIP. */
import { type Kysely, sql } from 'kysely';
import type { Database } from '../db/tables.js';
import { notFound } from '../http/problem.js';
import { HeldBySecurity } from './held-by-security.js';
import { money } from './params.js';
import { unpackPortfolio } from './portfolio-pack.js';
import { withSecurityNames } from './security-catalogue.js';

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

export interface ManagerSummary {
  cik: string;
  name: string;
  position_count: number;
  total_value: number;
}

/** What the managers of an overlap or comparison hold, per security, and who they are. */
export interface Holdings {
  /** The managers, in the order given (those with a quarter). */
  managers: ManagerSummary[];
  held: HeldBySecurity;
}

/** From the packed portfolios (every derived manager quarter has one: portfolioPack). */
async function fromPacks(
  db: Kysely<Database>,
  slot: ReadonlyMap<string, number>,
  quarter: string,
): Promise<HeldBySecurity> {
  const rows = await db
    .selectFrom('manager_portfolios')
    .select(['cik', 'positions'])
    .where('quarter', '=', quarter)
    .where('cik', 'in', [...slot.keys()])
    .execute();
  if (rows.length < slot.size)
    throw new Error(`a manager quarter of ${quarter} has no packed portfolio: run \`regdata migrate\``);
  const packs = rows.map((row) => ({ i: slot.get(row.cik) as number, pack: unpackPortfolio(row.positions) }));
  const largest = Math.max(...packs.map(({ pack }) => pack.count), 1);
  return withSecurityNames(db, (catalogue) => {
    const held = new HeldBySecurity(slot.size, catalogue, largest);
    for (const { i, pack } of packs) held.addPack(i, pack);
    return held;
  });
}

/**
 * The managers' positions of the quarter, summed per security, for all of them at once (each
 * position is visited once; overlap and compare then walk the securities once). Read from the packed
 * portfolios (one row per manager), named from the security master in memory.
 */
export async function holdingsOf(
  db: Kysely<Database>,
  ciks: readonly string[],
  quarter: string,
): Promise<Holdings> {
  const managers = await db
    .selectFrom('manager_quarters')
    .select(['cik', 'name', 'position_count', 'total_value'])
    .where('quarter', '=', quarter)
    .where('cik', 'in', ciks)
    .execute();
  const summaries = new Map<string, ManagerSummary>(
    managers.map((m) => [
      m.cik,
      {
        cik: m.cik,
        name: m.name,
        position_count: Number(m.position_count),
        total_value: money(m.total_value),
      },
    ]),
  );
  const slot = new Map(ciks.filter((cik) => summaries.has(cik)).map((cik, i) => [cik, i]));
  const held = await fromPacks(db, slot, quarter);
  return { managers: [...slot.keys()].map((cik) => summaries.get(cik) as ManagerSummary), held };
}
