/**
 * Crowded as of a day (SPEC §8 `as_of` on /api/crowded), derived with the quarter: for every day on
 * which a filing of the quarter was made, the CROWDED_TOP securities by equity holders counting only
 * what had been filed by the end of that day — each manager's quarter as the same resolution rules
 * (resolve.ts) make it from its filings of that date or earlier. A request then reads one day's
 * rows. Most managers' quarters are one filing, whose final positions count from its filing day; a
 * manager whose quarter changed later (a restatement, new holdings, a second original) counts with
 * its earlier state until the day it changed, computed from that state's raw rows.
 */
import { insertRows } from '../../../../../db/bulk.js';
import type { DbHandle } from '../../../../../db/connect.js';
import {
  isEquityCode,
  type PackedPortfolio,
  unpackPortfolio,
} from '../../../../../holdings/portfolio-pack.js';
import type { CrowdedDaysTable } from '../../../../../holdings/tables.js';
import type { FilingSumsView } from '../filing-sums.js';
import type { InfoRowFields } from '../info-row-codec.js';
import type { Executor } from './executor.js';
import { readFilingRows } from './filing-rows.js';
import { appliedFilings, managerPositions, type Position } from './positions.js';
import { type FilingHeader, type ResolvedQuarter, resolveManagerQuarter } from './resolve.js';

/** Rows kept per day: /api/crowded's `limit` maximum. */
export const CROWDED_TOP = 100;

/** Holders, value, shares of one CUSIP's equity positions. */
type Tally = [number, number, number];

const sameResolution = (a: ResolvedQuarter, b: ResolvedQuarter) =>
  appliedFilings(a)
    .map((f) => f.accession_number)
    .join() ===
  appliedFilings(b)
    .map((f) => f.accession_number)
    .join();

export class DailyCrowding {
  /** Per day, per CUSIP: the change in equity holders, value and shares that day. */
  private readonly days = new Map<string, Map<string, Tally>>();
  /** Earlier states of managers whose quarter changed after its first filing day. */
  private readonly earlier: { cik: string; day: string; until: string; resolved: ResolvedQuarter }[] = [];

  private tally(day: string, cusip: string): Tally {
    let byCusip = this.days.get(day);
    if (!byCusip) {
      byCusip = new Map();
      this.days.set(day, byCusip);
    }
    let tally = byCusip.get(cusip);
    if (!tally) {
      tally = [0, 0, 0];
      byCusip.set(cusip, tally);
    }
    return tally;
  }

  private add(day: string, sign: number, cusip: string, value: number, shares: number): void {
    const tally = this.tally(day, cusip);
    tally[0] += sign;
    tally[1] += sign * value;
    tally[2] += sign * shares;
  }

  /**
   * The day the manager's final quarter took effect: its states are the resolutions of its filings
   * made by each of its filing days; the last state is the final one, the others are noted for
   * addEarlierStates with the day each was replaced.
   */
  effectiveDay(final: ResolvedQuarter, filings: readonly FilingHeader[]): string {
    const states: { day: string; resolved: ResolvedQuarter }[] = [];
    for (const day of [...new Set(filings.map((f) => f.filing_date))].sort()) {
      const resolved = resolveManagerQuarter(filings.filter((f) => f.filing_date <= day));
      const last = states.at(-1);
      if (resolved && (!last || !sameResolution(last.resolved, resolved))) states.push({ day, resolved });
    }
    for (let i = 0; i + 1 < states.length; i++) {
      const state = states[i] as (typeof states)[number];
      this.earlier.push({
        cik: final.cik,
        day: state.day,
        until: (states[i + 1] as (typeof states)[number]).day,
        resolved: state.resolved,
      });
    }
    return states.at(-1)?.day ?? final.latest.filing_date;
  }

  /** A manager's final equity positions, counted from `day`. */
  addPositions(day: string, positions: readonly Position[]): void {
    for (const p of positions) if (p.is_equity === 1) this.add(day, 1, p.cusip, p.value, p.shares);
  }

  /** addPositions for a packed portfolio. */
  addPack(day: string, pack: PackedPortfolio): void {
    for (let i = 0; i < pack.count; i++) {
      if (isEquityCode(pack.codes[i] as number))
        this.add(day, 1, pack.cusip(i), pack.values[i] as number, pack.shares[i] as number);
    }
  }

  /** addPositions for a filing's summed positions (values already in thousands). */
  addView(day: string, view: FilingSumsView, isEquity: (code: number) => boolean): void {
    const { batch, start, count } = view;
    for (let i = start; i < start + count; i++) {
      if (!isEquity(batch.codes[i] as number)) continue;
      this.add(
        day,
        1,
        batch.cusips.slice(i * 9, i * 9 + 9),
        batch.values[i] as number,
        batch.shares[i] as number,
      );
    }
  }

  /** Counts each earlier state from its day until the day it was replaced (few managers). */
  async addEarlierStates(executor: Executor): Promise<void> {
    if (this.earlier.length === 0) return;
    const accessions = [
      ...new Set(this.earlier.flatMap((e) => appliedFilings(e.resolved).map((f) => f.accession_number))),
    ];
    const rows = await readFilingRows(executor, accessions);
    const rowsOf = (accession: string): readonly InfoRowFields[] => rows.get(accession) ?? [];
    for (const state of this.earlier) {
      for (const p of managerPositions(state.resolved, rowsOf)) {
        if (p.is_equity !== 1) continue;
        this.add(state.day, 1, p.cusip, p.value, p.shares);
        this.add(state.until, -1, p.cusip, p.value, p.shares);
      }
    }
  }

  /** The top CROWDED_TOP of every day, cumulative, ordered as /api/crowded orders. */
  snapshots(quarter: string): CrowdedDaysTable[] {
    const running = new Map<string, Tally>();
    const out: CrowdedDaysTable[] = [];
    for (const day of [...this.days.keys()].sort()) {
      for (const [cusip, delta] of this.days.get(day) as Map<string, Tally>) {
        const tally = running.get(cusip) ?? [0, 0, 0];
        tally[0] += delta[0];
        tally[1] += delta[1];
        tally[2] += delta[2];
        running.set(cusip, tally);
      }
      const top = [...running]
        .filter(([, t]) => t[0] > 0)
        .sort(([a, x], [b, y]) => y[0] - x[0] || y[1] - x[1] || (a < b ? -1 : a > b ? 1 : 0))
        .slice(0, CROWDED_TOP);
      for (const [i, [cusip, t]] of top.entries())
        out.push({
          quarter,
          day,
          rank: i + 1,
          cusip,
          manager_count: t[0],
          total_value: t[1],
          total_shares: t[2],
        });
    }
    return out;
  }

  async write(handle: DbHandle, executor: Executor, quarter: string): Promise<void> {
    await this.addEarlierStates(executor);
    await insertRows(handle, 'crowded_days', this.snapshots(quarter), executor);
  }
}

/** Managers whose positions are read per query in the backfill. */
const MANAGERS_PER_READ = 200;

/**
 * Derives crowded_days for the quarters a database derived before they existed (run by
 * migrateToLatest, after the packed portfolios' backfill): from the packed portfolios and the
 * filings, without re-deriving the quarter.
 */
export async function backfillCrowdedDays(handle: DbHandle, executor: Executor): Promise<number> {
  const derived = await executor.selectFrom('manager_quarters').select('quarter').distinct().execute();
  const done = new Set(
    (await executor.selectFrom('crowded_days').select('quarter').distinct().execute()).map((r) => r.quarter),
  );
  let backfilled = 0;
  for (const { quarter } of derived) {
    if (done.has(quarter)) continue;
    const filings: FilingHeader[] = await executor
      .selectFrom('filings_13f')
      .select(['accession_number', 'cik', 'quarter', 'filing_date', 'form_type', 'amendment_type'])
      .where('quarter', '=', quarter)
      .execute();
    const filingsOf = new Map<string, FilingHeader[]>();
    for (const filing of filings) filingsOf.set(filing.cik, [...(filingsOf.get(filing.cik) ?? []), filing]);
    const crowding = new DailyCrowding();
    const managers = [...filingsOf.keys()].sort();
    for (let i = 0; i < managers.length; i += MANAGERS_PER_READ) {
      const batch = managers.slice(i, i + MANAGERS_PER_READ);
      const rows = await executor
        .selectFrom('manager_portfolios')
        .select(['cik', 'positions'])
        .where('quarter', '=', quarter)
        .where('cik', 'in', batch)
        .execute();
      const held = new Map(rows.map((row) => [row.cik, unpackPortfolio(row.positions)]));
      for (const cik of batch) {
        const own = filingsOf.get(cik) ?? [];
        const final = resolveManagerQuarter(own);
        const pack = held.get(cik);
        if (final && pack) crowding.addPack(crowding.effectiveDay(final, own), pack);
      }
    }
    await crowding.write(handle, executor, quarter);
    backfilled += 1;
  }
  return backfilled;
}
