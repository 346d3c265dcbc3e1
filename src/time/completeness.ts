/**
 * How complete the latest period is (SPEC §8). Call reports: reported = institutions with a record
 * at the report date, expected = those with a record at the previous report date that are still
 * active. 13F: reported = managers with a 13F-HR for the quarter, expected = the previous quarter's
 * managers (filing_progress, derived at load time). A period is complete when share ≥ 0.98 or it
 * ended more than 100 days (call reports) / 75 days (13F) ago.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../db/tables.js';
import { quarterEnd } from '../holdings/identifiers.js';
import { daysBetween, today } from './calendar.js';

export const COMPLETE_SHARE = 0.98;
export const CALL_REPORT_SETTLED_DAYS = 100;
export const FILING_SEASON_SETTLED_DAYS = 75;

export interface Completeness {
  period: string;
  reported: number;
  expected: number;
  /** reported ÷ expected, 4 decimals; 1 when nothing was expected. */
  share: number;
}

const shareOf = (reported: number, expected: number) =>
  expected === 0 ? 1 : Math.round((reported / expected) * 10_000) / 10_000;

export function isComplete(c: Completeness, periodEnd: string, settledDays: number, on = today()): boolean {
  return c.share >= COMPLETE_SHARE || daysBetween(periodEnd, on) > settledDays;
}

/** Call reports at `date` against the report date before it (FDIC and demo rows; FFIEC's apart). */
export async function callReportCompleteness(
  db: Kysely<Database>,
  date: string,
  source: 'fdic' | 'ffiec',
): Promise<Completeness> {
  const sources = source === 'ffiec' ? ['ffiec'] : ['fdic', 'demo'];
  const previous = await db
    .selectFrom('financials')
    .select((eb) => eb.fn.max('report_date').as('date'))
    .where('report_date', '<', date)
    .where('source', 'in', sources)
    .executeTakeFirst();
  const [reported, expected] = await Promise.all([
    db
      .selectFrom('financials')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('report_date', '=', date)
      .where('source', 'in', sources)
      .executeTakeFirstOrThrow(),
    previous?.date
      ? db
          .selectFrom('financials as f')
          .innerJoin('institutions as i', 'i.cert', 'f.cert')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('f.report_date', '=', previous.date)
          .where('f.source', 'in', sources)
          .where('i.active', '=', 1)
          .executeTakeFirstOrThrow()
      : { n: 0 },
  ]);
  const [r, e] = [Number(reported.n), Number(expected.n)];
  return { period: date, reported: r, expected: e, share: shareOf(r, e) };
}

/** 13F filers of `quarter` against the previous loaded quarter's. */
export async function filingCompleteness(db: Kysely<Database>, quarter: string) {
  const progress = await db
    .selectFrom('filing_progress')
    .select(['managers', 'previous_filers', 'deadline'])
    .where('quarter', '=', quarter)
    .executeTakeFirst();
  if (!progress) return null;
  const [reported, expected] = [Number(progress.managers), Number(progress.previous_filers)];
  const completeness: Completeness = {
    period: quarter,
    reported,
    expected,
    share: shareOf(reported, expected),
  };
  return { completeness, deadline: progress.deadline };
}

/** SPEC §8's `quarter_complete` of a 13F quarter (false when its season is unknown). */
export async function quarterComplete(db: Kysely<Database>, quarter: string): Promise<boolean> {
  const found = await filingCompleteness(db, quarter);
  return found ? isComplete(found.completeness, quarterEnd(quarter), FILING_SEASON_SETTLED_DAYS) : false;
}
