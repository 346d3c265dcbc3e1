/**
 * Per source: the latest period served, when it was loaded, the upstream's own update time where it
 * gives one, the next expected release and how complete the latest period is (docs/time.md).
 */
import { type Kysely, sql } from 'kysely';
import type { Database, TableName } from '../db/tables.js';
import { nextQuarter, quarterEnd } from '../holdings/identifiers.js';
import { addDays, addMonths, nextQuarterEnd, today } from './calendar.js';
import {
  CALL_REPORT_SETTLED_DAYS,
  type Completeness,
  callReportCompleteness,
  FILING_SEASON_SETTLED_DAYS,
  filingCompleteness,
  isComplete,
} from './completeness.js';

/** Call reports are due 30 days after the quarter (35 with foreign offices); BankFind follows. */
export const CALL_REPORT_DUE_DAYS = 35;
/** Form 13F is due 45 days after the quarter. */
export const FILING_DEADLINE_DAYS = 45;

export interface Freshness {
  source: string;
  latest_period: string | null;
  loaded_at: string | null;
  upstream_updated_at: string | null;
  next_expected: string | null;
  completeness: Completeness | null;
  complete: boolean | null;
}

type Partial = Omit<Freshness, 'source' | 'loaded_at'>;
const UNKNOWN: Partial = {
  latest_period: null,
  upstream_updated_at: null,
  next_expected: null,
  completeness: null,
  complete: null,
};

/** The largest value of a column (a date or quarter), optionally among rows of some sources. */
async function maxOf(db: Kysely<Database>, table: TableName, column: string, sources?: readonly string[]) {
  const where = sources ? sql` where source in (${sql.join(sources)})` : sql``;
  const { rows } = await sql<{
    value: string | null;
  }>`select max(${sql.ref(column)}) as value from ${sql.table(table)}${where}`.execute(db);
  return rows[0]?.value ?? null;
}

async function callReports(db: Kysely<Database>, source: 'fdic' | 'ffiec'): Promise<Partial> {
  const latest = await maxOf(
    db,
    'financials',
    'report_date',
    source === 'fdic' ? ['fdic', 'demo'] : ['ffiec'],
  );
  if (latest === null) return UNKNOWN;
  const completeness = await callReportCompleteness(db, latest, source);
  const complete = isComplete(completeness, latest, CALL_REPORT_SETTLED_DAYS);
  return {
    latest_period: latest,
    upstream_updated_at: null,
    // Still arriving: the rest of this report date; else the next one, once it is due.
    next_expected: complete ? addDays(nextQuarterEnd(latest), CALL_REPORT_DUE_DAYS) : today(),
    completeness,
    complete,
  };
}

async function filings13f(db: Kysely<Database>): Promise<Partial> {
  const latest = await maxOf(db, 'manager_quarters', 'quarter');
  if (latest === null) return UNKNOWN;
  const found = await filingCompleteness(db, latest);
  const completeness = found?.completeness ?? null;
  const complete = completeness
    ? isComplete(completeness, quarterEnd(latest), FILING_SEASON_SETTLED_DAYS)
    : null;
  const nextDeadline = addDays(quarterEnd(nextQuarter(latest)), FILING_DEADLINE_DAYS);
  return {
    latest_period: latest,
    upstream_updated_at: null,
    next_expected: complete === false && found && found.deadline >= today() ? found.deadline : nextDeadline,
    completeness,
    complete,
  };
}

const FREQUENCY_MONTHS: Record<string, number> = { Monthly: 1, Quarterly: 3, Annual: 12, Semiannual: 6 };
const FREQUENCY_DAYS: Record<string, number> = { Daily: 1, Weekly: 7, Biweekly: 14 };

/** FRED: the series metadata's last update plus one period of its frequency, earliest series first. */
async function fred(db: Kysely<Database>): Promise<Partial> {
  const latest = await maxOf(db, 'macro_observations', 'date');
  if (latest === null) return UNKNOWN;
  const series = await db.selectFrom('macro_series').select(['frequency', 'last_updated']).execute();
  const updated = series
    .map((s) => s.last_updated?.slice(0, 10))
    .filter((d): d is string => !!d)
    .sort();
  const next = series
    .filter((s) => s.last_updated)
    .map((s) => {
      const from = (s.last_updated as string).slice(0, 10);
      const kind = s.frequency.split(',')[0]?.trim() ?? '';
      if (kind in FREQUENCY_MONTHS) return addMonths(from, FREQUENCY_MONTHS[kind] as number);
      return addDays(from, FREQUENCY_DAYS[kind] ?? 1);
    })
    .sort();
  return {
    ...UNKNOWN,
    latest_period: latest,
    upstream_updated_at: updated.at(-1) ?? null,
    next_expected: next[0] ?? null,
  };
}

async function failures(db: Kysely<Database>): Promise<Partial> {
  return { ...UNKNOWN, latest_period: await maxOf(db, 'failures', 'closing_date') };
}

/** SEC publishes the adviser file monthly: the next one is due the month after the load. */
function monthly(loadedAt: string | null): Partial {
  return { ...UNKNOWN, next_expected: loadedAt ? `${addMonths(loadedAt.slice(0, 7) + '-01', 1)}` : null };
}

export async function freshness(db: Kysely<Database>, sources: readonly string[]): Promise<Freshness[]> {
  const loaded = new Map(
    (await db.selectFrom('sources').select(['source', 'loaded_at']).execute()).map((r) => [
      r.source,
      r.loaded_at,
    ]),
  );
  const rules: Record<string, () => Promise<Partial> | Partial> = {
    'fdic-financials': () => callReports(db, 'fdic'),
    'ffiec-call': () => callReports(db, 'ffiec'),
    'fdic-failures': () => failures(db),
    fred: () => fred(db),
    'sec-13f': () => filings13f(db),
    'sec-advisers': () => monthly(loaded.get('sec-advisers') ?? null),
  };
  return Promise.all(
    sources.map(async (source) => ({
      source,
      ...(await (rules[source]?.() ?? UNKNOWN)),
      loaded_at: loaded.get(source) ?? null,
    })),
  );
}
