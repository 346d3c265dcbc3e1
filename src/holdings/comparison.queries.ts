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

export interface ManagerSummary {
  cik: string;
  name: string;
  position_count: number;
  total_value: number;
}

/** A manager's positions in one CUSIP, summed. */
export interface Held {
  value: number;
  shares: number;
}

export interface Holdings {
  /** The managers, in the order given. */
  managers: ManagerSummary[];
  /** CUSIP → its issuer and, per manager (same order), that manager's summed positions or undefined. */
  byCusip: Map<string, { issuer: string; ticker: string | null; held: (Held | undefined)[] }>;
}

/**
 * The managers' positions of the quarter, summed per CUSIP, in one map for all of them (each row
 * is visited once; overlap and compare then walk the CUSIPs once).
 */
export async function holdingsByCusip(
  db: Kysely<Database>,
  ciks: readonly string[],
  quarter: string,
): Promise<Holdings> {
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
      .select(['p.cik', 'p.cusip', 's.issuer', 's.ticker', 'p.value', 'p.shares'])
      .where('p.quarter', '=', quarter)
      .where('p.cik', 'in', ciks)
      .execute(),
  ]);
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
  const byCusip: Holdings['byCusip'] = new Map();
  for (const p of positions) {
    const i = slot.get(p.cik);
    if (i === undefined) continue;
    let entry = byCusip.get(p.cusip);
    if (!entry) {
      entry = { issuer: p.issuer, ticker: p.ticker ?? null, held: [] };
      byCusip.set(p.cusip, entry);
    }
    const held = entry.held[i];
    if (held) {
      held.value += Number(p.value);
      held.shares += Number(p.shares);
    } else {
      entry.held[i] = { value: Number(p.value), shares: Number(p.shares) };
    }
  }
  return { managers: [...slot.keys()].map((cik) => summaries.get(cik) as ManagerSummary), byCusip };
}

export function managerSummary(m: ManagerSummary): ManagerSummary {
  return { cik: m.cik, name: m.name, position_count: m.position_count, total_value: m.total_value };
}
