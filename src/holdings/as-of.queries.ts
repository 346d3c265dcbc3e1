/**
 * Answers as of a day (SPEC §8 `as_of`): only 13F filings made on or before it count. A manager's
 * quarter is resolved from those filings by the load's own rules (the ingest side's resolve.ts and
 * positions.ts: the same code, so the two can never disagree), from their raw rows. When none of the
 * manager's filings of the quarters involved was made after the day, the precomputed answer is the
 * same and is served instead. Crowded reads the per-day rows derived at load time (crowding.ts).
 */
import type { Kysely } from 'kysely';
import type { Database } from '../db/tables.js';
import type { Page } from '../http/paging.js';
import { compare, type Portfolio } from '../ingest/sources/sec/holdings/derive/changes.js';
import { readFilingRows } from '../ingest/sources/sec/holdings/derive/filing-rows.js';
import {
  appliedFilings,
  managerPositions,
  type Position,
} from '../ingest/sources/sec/holdings/derive/positions.js';
import {
  type FilingHeader,
  type ResolvedQuarter,
  resolveManagerQuarter,
} from '../ingest/sources/sec/holdings/derive/resolve.js';
import { securitiesOf, shownChange } from './changes.queries.js';
import { money } from './params.js';
import { withSecurityNames } from './security-catalogue.js';
import type { ChangeStatus } from './tables.js';

const REPORT_FORMS = ['13F-HR', '13F-HR/A'];

/** The manager's latest quarter with a holdings report filed on or before the day. */
export async function latestQuarterAsOf(db: Kysely<Database>, cik: string, asOf: string, before?: string) {
  let query = db
    .selectFrom('filings_13f')
    .select('quarter')
    .distinct()
    .where('cik', '=', cik)
    .where('filing_date', '<=', asOf)
    .where('form_type', 'in', REPORT_FORMS);
  if (before) query = query.where('quarter', '<', before);
  const rows = await query.orderBy('quarter', 'desc').execute();
  return rows[0]?.quarter ?? null;
}

/** Whether a holdings report of the manager for any of these quarters was filed after the day. */
export async function filedAfter(
  db: Kysely<Database>,
  cik: string,
  quarters: readonly string[],
  asOf: string,
) {
  if (quarters.length === 0) return false;
  const row = await db
    .selectFrom('filings_13f')
    .select('accession_number')
    .where('cik', '=', cik)
    .where('quarter', 'in', [...quarters])
    .where('form_type', 'in', REPORT_FORMS)
    .where('filing_date', '>', asOf)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** The quarters up to `quarter` the manager has filings for (what a comparison can reach back to). */
export async function quartersUpTo(db: Kysely<Database>, cik: string, quarter: string): Promise<string[]> {
  const rows = await db
    .selectFrom('filings_13f')
    .select('quarter')
    .distinct()
    .where('cik', '=', cik)
    .where('quarter', '<=', quarter)
    .execute();
  return rows.map((row) => row.quarter);
}

export interface QuarterAsOf {
  resolved: ResolvedQuarter;
  positions: Position[];
  name: string;
  city: string | null;
  state: string | null;
  total: number;
}

/** The manager's filings of the quarter made on or before the day (any form), with their cover. */
export function filingsAsOf(db: Kysely<Database>, cik: string, quarter: string, asOf: string) {
  return db
    .selectFrom('filings_13f')
    .select([
      'accession_number',
      'cik',
      'quarter',
      'filing_date',
      'form_type',
      'amendment_type',
      'manager_name',
      'city',
      'state',
    ])
    .where('cik', '=', cik)
    .where('quarter', '=', quarter)
    .where('filing_date', '<=', asOf)
    .execute();
}

type FilingAsOf = Awaited<ReturnType<typeof filingsAsOf>>[number];

/** The quarter `resolved` (from `filings`) describes: its positions summed from the raw rows. */
export async function resolvedState(
  db: Kysely<Database>,
  filings: readonly FilingAsOf[],
  resolved: ResolvedQuarter,
): Promise<QuarterAsOf> {
  const rows = await readFilingRows(
    db,
    appliedFilings(resolved).map((f) => f.accession_number),
  );
  const positions = managerPositions(resolved, (accession) => rows.get(accession) ?? []);
  const cover = filings.find((f) => f.accession_number === resolved.latest.accession_number) as FilingAsOf;
  const total = positions.reduce((sum, p) => sum + p.value, 0);
  return { resolved, positions, name: cover.manager_name, city: cover.city, state: cover.state, total };
}

/** The manager's filings of the quarter made by the day and what they resolve to; null when none do. */
export async function resolveAsOf(db: Kysely<Database>, cik: string, quarter: string, asOf: string) {
  const filings = await filingsAsOf(db, cik, quarter, asOf);
  const resolved = resolveManagerQuarter(filings as FilingHeader[]);
  return resolved && { filings, resolved };
}

/** The manager's quarter from its filings made on or before the day; null when it had none. */
export async function quarterAsOf(
  db: Kysely<Database>,
  cik: string,
  quarter: string,
  asOf: string,
): Promise<QuarterAsOf | null> {
  const found = await resolveAsOf(db, cik, quarter, asOf);
  return found && resolvedState(db, found.filings, found.resolved);
}

function equityOf(state: QuarterAsOf | null): Portfolio {
  const portfolio: Portfolio = new Map();
  for (const p of state?.positions ?? [])
    if (p.is_equity === 1) portfolio.set(p.cusip, { shares: p.shares, value: p.value });
  return portfolio;
}

/** The changes endpoint's answer as of the day: the quarter against the previous one filed by then. */
export async function changesAsOf(
  db: Kysely<Database>,
  cik: string,
  after: QuarterAsOf,
  status: ChangeStatus | undefined,
  page: Page,
  asOf: string,
) {
  const quarter = after.resolved.quarter;
  let previousQuarter = await latestQuarterAsOf(db, cik, asOf, quarter);
  let before: QuarterAsOf | null = null;
  // The latest earlier quarter whose filings by then resolve to holdings (13F-NT ones do not).
  while (previousQuarter) {
    before = await quarterAsOf(db, cik, previousQuarter, asOf);
    if (before) break;
    previousQuarter = await latestQuarterAsOf(db, cik, asOf, previousQuarter);
  }
  const spans = previousQuarter
    ? await db
        .selectFrom('split_spans')
        .select(['cusip', 'factor'])
        .where('from_quarter', '=', previousQuarter)
        .where('to_quarter', '=', quarter)
        .execute()
    : [];
  const factors = new Map(spans.map((s) => [s.cusip, Number(s.factor)]));
  const rows = compare(
    {
      cik,
      quarter,
      previous: previousQuarter,
      before: equityOf(before),
      after: equityOf(after),
      totalBefore: before?.total ?? 0,
      totalAfter: after.total,
    },
    (_from, _to, cusip) => factors.get(cusip) ?? null,
  );
  const summary = { new: 0, added: 0, reduced: 0, unchanged: 0, sold_out: 0 };
  let valueBefore = 0;
  let valueAfter = 0;
  for (const row of rows) {
    summary[row.status] += 1;
    valueBefore += row.value_before;
    valueAfter += row.value_after;
  }
  const selected = status ? rows.filter((row) => row.status === status) : rows;
  const shown = selected.slice(page.offset, page.offset + page.limit);
  const master = await securitiesOf(
    db,
    shown.map((row) => row.cusip),
  );
  const data = shown.map((row) => shownChange(row, master.get(row.cusip)));
  return {
    previous_quarter: previousQuarter,
    summary: { ...summary, value_before: money(valueBefore), value_after: money(valueAfter) },
    data,
    total: selected.length,
  };
}

/**
 * The latest quarter with a filing made on or before the day. One index seek per loaded quarter
 * (a quarter's crowded days are keyed by quarter, then day): `max(quarter) … where day <= ?` walked
 * the key backwards through every later filing day of the newest quarter instead (~36 µs mid-season).
 */
export async function latestCrowdedQuarter(db: Kysely<Database>, asOf: string): Promise<string | null> {
  const row = await db
    .selectFrom('holdings_quarters as h')
    .select((eb) => eb.fn.max('h.quarter').as('quarter'))
    .where(({ exists, selectFrom }) =>
      exists(
        selectFrom('crowded_days as c')
          .select('c.day')
          .whereRef('c.quarter', '=', 'h.quarter')
          .where('c.day', '<=', asOf),
      ),
    )
    .executeTakeFirst();
  return row?.quarter ?? null;
}

/** /api/crowded as of the day: the rows of the quarter's last filing day on or before it. */
export async function crowdedAsOf(db: Kysely<Database>, quarter: string, asOf: string, limit: number) {
  const day = await db
    .selectFrom('crowded_days')
    .select((eb) => eb.fn.max('day').as('day'))
    .where('quarter', '=', quarter)
    .where('day', '<=', asOf)
    .executeTakeFirst();
  if (!day?.day) return [];
  const rows = await db
    .selectFrom('crowded_days')
    .select(['cusip', 'manager_count', 'total_value', 'total_shares'])
    .where('quarter', '=', quarter)
    .where('day', '=', day.day)
    .orderBy('rank')
    .limit(limit)
    .execute();
  // Names from the security master in memory, as /api/crowded takes its tickers (no join per row).
  const { data } = await withSecurityNames(db, (catalogue) => {
    let missing = 0;
    const data = rows.map((row) => {
      const id = catalogue.idOf(row.cusip);
      if (id < 0) missing += 1;
      const security = id < 0 ? null : catalogue.entry(id);
      return {
        cusip: row.cusip,
        issuer: security?.issuer ?? '',
        title_of_class: security?.title_of_class ?? null,
        ticker: security?.ticker ?? null,
        manager_count: Number(row.manager_count),
        total_value: money(row.total_value),
        total_shares: Number(row.total_shares),
      };
    });
    return { data, missing };
  });
  return data;
}
