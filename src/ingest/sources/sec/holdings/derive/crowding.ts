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
  CUSIP_BYTES,
  isEquityCode,
  type PackedPortfolio,
  unpackPortfolio,
} from '../../../../../holdings/portfolio-pack.js';
import type { CrowdedDaysTable } from '../../../../../holdings/tables.js';
import type { FilingSumsView } from '../filing-sums.js';
import type { InfoRowFields } from '../info-row-codec.js';
import { CusipNumbers } from './cusip-numbers.js';
import { DayChanges } from './day-changes.js';
import type { Executor } from './executor.js';
import { readFilingRows } from './filing-rows.js';
import { appliedFilings, managerPositions, type Position } from './positions.js';
import { type FilingHeader, type ResolvedQuarter, resolveManagerQuarter } from './resolve.js';

/** Rows kept per day: /api/crowded's `limit` maximum. */
export const CROWDED_TOP = 100;

const sameResolution = (a: ResolvedQuarter, b: ResolvedQuarter) =>
  appliedFilings(a)
    .map((f) => f.accession_number)
    .join() ===
  appliedFilings(b)
    .map((f) => f.accession_number)
    .join();

/** Per CUSIP number: equity holders, value and shares counted so far. */
class Running {
  readonly holders: Float64Array;
  readonly values: Float64Array;
  readonly shares: Float64Array;
  /** A day's changes summed per CUSIP number, then added: the sums a day-by-day count gives. */
  private readonly day: { holders: Float64Array; values: Float64Array; shares: Float64Array };
  /** The CUSIP numbers the day being applied has changed so far. */
  private readonly touched: Uint8Array;

  constructor(private readonly cusips: readonly string[]) {
    const size = cusips.length;
    this.holders = new Float64Array(size);
    this.values = new Float64Array(size);
    this.shares = new Float64Array(size);
    this.day = {
      holders: new Float64Array(size),
      values: new Float64Array(size),
      shares: new Float64Array(size),
    };
    this.touched = new Uint8Array(size);
  }

  apply(changes: DayChanges): void {
    const { day } = this;
    const touched: number[] = [];
    for (const chunk of changes.chunks) {
      for (let i = 0; i < chunk.count; i++) {
        const n = chunk.numbers[i] as number;
        const sign = chunk.signs[i] as number;
        if (this.touched[n] === 0) {
          this.touched[n] = 1;
          touched.push(n);
        }
        day.holders[n] = (day.holders[n] as number) + sign;
        day.values[n] = (day.values[n] as number) + sign * (chunk.values[i] as number);
        day.shares[n] = (day.shares[n] as number) + sign * (chunk.shares[i] as number);
      }
    }
    for (const n of touched) {
      this.holders[n] = (this.holders[n] as number) + (day.holders[n] as number);
      this.values[n] = (this.values[n] as number) + (day.values[n] as number);
      this.shares[n] = (this.shares[n] as number) + (day.shares[n] as number);
      day.holders[n] = 0;
      day.values[n] = 0;
      day.shares[n] = 0;
      this.touched[n] = 0;
    }
  }

  /** /api/crowded's order: holders, then value, descending; then CUSIP. */
  private ranksBefore(a: number, b: number): boolean {
    const { holders, values } = this;
    if (holders[a] !== holders[b]) return (holders[a] as number) > (holders[b] as number);
    if (values[a] !== values[b]) return (values[a] as number) > (values[b] as number);
    return (this.cusips[a] as string) < (this.cusips[b] as string);
  }

  /**
   * The CROWDED_TOP first of the securities held, in order: one pass keeping the best so far (a day
   * of a quarter sees tens of thousands of securities, of which a hundred are kept).
   */
  top(): number[] {
    const top: number[] = [];
    for (let n = 0; n < this.holders.length; n++) {
      if ((this.holders[n] as number) <= 0) continue;
      if (top.length === CROWDED_TOP) {
        if (!this.ranksBefore(n, top[CROWDED_TOP - 1] as number)) continue;
        top.pop();
      }
      let at = top.length;
      while (at > 0 && this.ranksBefore(n, top[at - 1] as number)) at--;
      top.splice(at, 0, n);
    }
    return top;
  }
}

/**
 * Tallied by CUSIP number (`numbers`, shared with the quarter's security totals, whose adds return
 * the numbers of the positions they were given).
 */
export class DailyCrowding {
  /** Per day: the equity positions that start or stop counting that day. */
  private readonly days = new Map<string, DayChanges>();
  /** Earlier states of managers whose quarter changed after its first filing day. */
  private readonly earlier: { cik: string; day: string; until: string; resolved: ResolvedQuarter }[] = [];

  constructor(private readonly numbers: CusipNumbers) {}

  /** The day's changes, created on first use: each add* method looks its day up once. */
  private day(day: string): DayChanges {
    let changes = this.days.get(day);
    if (!changes) {
      changes = new DayChanges();
      this.days.set(day, changes);
    }
    return changes;
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

  /** A manager's final equity positions (`numbered`: their CUSIP numbers), counted from `day`. */
  addPositions(day: string, positions: readonly Position[], numbered: Int32Array): void {
    const changes = this.day(day);
    positions.forEach((p, i) => {
      if (p.is_equity === 1) changes.add(numbered[i] as number, 1, p.value, p.shares);
    });
  }

  /** addPositions for a packed portfolio. */
  addPack(day: string, pack: PackedPortfolio): void {
    const changes = this.day(day);
    for (let i = 0; i < pack.count; i++) {
      if (isEquityCode(pack.codes[i] as number))
        changes.add(
          this.numbers.numberAt(pack.cusipBytes, CUSIP_BYTES * i),
          1,
          pack.values[i] as number,
          pack.shares[i] as number,
        );
    }
  }

  /** addPositions for a filing's summed positions (values already in thousands). */
  addView(day: string, view: FilingSumsView, numbered: Int32Array): void {
    const { batch, start, count } = view;
    const changes = this.day(day);
    for (let i = 0; i < count; i++) {
      const at = start + i;
      if (isEquityCode(batch.codes[at] as number))
        changes.add(numbered[i] as number, 1, batch.values[at] as number, batch.shares[at] as number);
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
        const n = this.numbers.numberOf(p.cusip);
        this.day(state.day).add(n, 1, p.value, p.shares);
        this.day(state.until).add(n, -1, p.value, p.shares);
      }
    }
  }

  /** The top CROWDED_TOP of every day, cumulative, ordered as /api/crowded orders. */
  snapshots(quarter: string): CrowdedDaysTable[] {
    const { cusips } = this.numbers;
    const running = new Running(cusips);
    const out: CrowdedDaysTable[] = [];
    for (const day of [...this.days.keys()].sort()) {
      running.apply(this.days.get(day) as DayChanges);
      running.top().forEach((n, i) => {
        out.push({
          quarter,
          day,
          rank: i + 1,
          cusip: cusips[n] as string,
          manager_count: running.holders[n] as number,
          total_value: running.values[n] as number,
          total_shares: running.shares[n] as number,
        });
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
    const crowding = new DailyCrowding(new CusipNumbers());
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
