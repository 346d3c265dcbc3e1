/**
 * Stock splits seen in the holders' own share counts (SPEC §6; method and limits in
 * docs/holdings-changes.md). 13F filings carry no corporate actions, but a split shows in them: every
 * holder that did not trade reports its shares multiplied by the factor, at a per-share price
 * divided by it. Between two consecutive loaded quarters, for each CUSIP:
 *
 * 1. Candidates (cheap, from security_quarters): the equity shares held moved by ≥ 20 % one way
 *    while the per-share price (equity value ÷ equity shares) moved the other way.
 * 2. The holders in both quarters with positive shares and values; at least MIN_HOLDERS.
 * 3. The steady holders: those whose value moved like the typical (median) holder's, within ±25 %:
 *    their value followed the price, so they barely traded. Their median shares-now ÷ shares-before
 *    ratio (all holders' if fewer than MIN_HOLDERS are steady) is snapped to the nearest plausible
 *    factor (2, 3, 4, …, 50, 3/2, 5/4 and the reciprocals) when within 3 %.
 * 4. Evidence: at least half of all compared holders show that factor within 1 % (a holder that
 *    did not trade reports exactly its shares × factor; random trading almost never does), and
 *    the steady holders' price per share moved by about 1 / factor: adjusted by the factor, it
 *    moved less than unadjusted (a 2-for-1 split is missed if the stock also rose more than 41 %).
 */
import { sql } from 'kysely';
import { insertRows } from '../../../../../db/bulk.js';
import type { DbHandle } from '../../../../../db/connect.js';
import { CUSIP_BYTES, isEquityCode, unpackPortfolio } from '../../../../../holdings/portfolio-pack.js';
import type { SecuritySplitsTable } from '../../../../../holdings/tables.js';
import { CusipNumbers } from './cusip-numbers.js';
import type { Executor } from './executor.js';

const FORWARD = [5 / 4, 3 / 2, 2, 3, 4, 5, 6, 7, 8, 10, 15, 20, 25, 30, 40, 50];
/** Shares now per share before: forward splits and their reverse splits. */
export const SPLIT_FACTORS: readonly number[] = [...FORWARD, ...FORWARD.map((f) => 1 / f)];
export const MIN_HOLDERS = 3;
const SNAP = Math.log(1.03);
const STEADY = Math.log(1.25);
const EXACT = Math.log(1.01);
const CANDIDATE_SHARES_MOVE = Math.log(1.2);

export interface HolderPair {
  sharesBefore: number;
  valueBefore: number;
  sharesAfter: number;
  valueAfter: number;
}

export interface DetectedSplit {
  factor: number;
  median: number;
  holders: number;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

/** The split the holders' share counts show, or null (steps 2–4 above). */
export function detectSplit(pairs: readonly HolderPair[]): DetectedSplit | null {
  const usable = pairs.filter(
    (p) => p.sharesBefore > 0 && p.sharesAfter > 0 && p.valueBefore > 0 && p.valueAfter > 0,
  );
  if (usable.length < MIN_HOLDERS) return null;
  const typical = median(usable.map((p) => p.valueAfter / p.valueBefore));
  const steady = usable.filter((p) => Math.abs(Math.log(p.valueAfter / p.valueBefore / typical)) <= STEADY);
  const basis = steady.length >= MIN_HOLDERS ? steady : usable;
  const ratio = median(basis.map((p) => p.sharesAfter / p.sharesBefore));
  let factor: number | null = null;
  for (const candidate of SPLIT_FACTORS) {
    const distance = Math.abs(Math.log(ratio / candidate));
    if (distance <= SNAP && (factor === null || distance < Math.abs(Math.log(ratio / factor))))
      factor = candidate;
  }
  if (factor === null) return null;
  // Holders that did not trade show the factor itself: at least half of them must.
  const exact = usable.filter(
    (p) => Math.abs(Math.log(p.sharesAfter / p.sharesBefore / (factor as number))) <= EXACT,
  );
  if (exact.length * 2 < usable.length) return null;
  const sum = (pick: (p: HolderPair) => number) => basis.reduce((total, p) => total + pick(p), 0);
  const priceBefore = sum((p) => p.valueBefore) / sum((p) => p.sharesBefore);
  const priceAfter = sum((p) => p.valueAfter) / sum((p) => p.sharesAfter);
  // The price must have moved by about 1 / factor: adjusted, it moved less than unadjusted.
  const move = priceAfter / priceBefore;
  if (Math.abs(Math.log(move * factor)) >= Math.abs(Math.log(move))) return null;
  return { factor, median: ratio, holders: usable.length };
}

/** CUSIPs whose totals between the two quarters look like a split (step 1). */
async function candidates(executor: Executor, quarter: string, previous: string): Promise<string[]> {
  const { rows } = await sql<{ cusip: string; shares_ratio: number; price_ratio: number }>`
    select c.cusip, (1.0 * c.equity_shares) / p.equity_shares as shares_ratio,
           (c.equity_value / c.equity_shares) / (p.equity_value / p.equity_shares) as price_ratio
    from security_quarters c
    join security_quarters p on p.cusip = c.cusip and p.quarter = ${previous}
    where c.quarter = ${quarter} and c.equity_manager_count >= ${MIN_HOLDERS}
      and p.equity_manager_count >= ${MIN_HOLDERS}
      and c.equity_shares > 0 and p.equity_shares > 0 and c.equity_value > 0 and p.equity_value > 0
  `.execute(executor);
  return rows
    .filter((row) => {
      const shares = Math.log(Number(row.shares_ratio));
      return Math.abs(shares) >= CANDIDATE_SHARES_MOVE && shares * Math.log(Number(row.price_ratio)) < 0;
    })
    .map((row) => row.cusip);
}

/** Managers read per query (each with its two quarters' packed portfolios). */
const MANAGERS_PER_READ = 200;

/**
 * A packed portfolio's equity positions among the candidates: their number → [shares, value].
 * Every equity position of every manager filing in both quarters is looked at (~5 million a quarter
 * in the full-scale demo), so each CUSIP is looked up from its bytes, not cut out as a string.
 */
function equityAmong(bytes: Uint8Array, candidateNumbers: CusipNumbers): Map<number, [number, number]> {
  const packed = unpackPortfolio(bytes);
  const held = new Map<number, [number, number]>();
  for (let i = 0; i < packed.count; i++) {
    if (!isEquityCode(packed.codes[i] as number)) continue;
    const n = candidateNumbers.findAt(packed.cusipBytes, CUSIP_BYTES * i);
    if (n !== undefined) held.set(n, [packed.shares[i] as number, packed.values[i] as number]);
  }
  return held;
}

/**
 * Step 2's pairs: for each CUSIP, the managers that held it as equity in both quarters, from their
 * packed portfolios (one row per manager quarter, not a join of millions of positions).
 */
async function holderPairs(
  executor: Executor,
  quarter: string,
  previous: string,
  cusips: readonly string[],
): Promise<Map<string, HolderPair[]>> {
  const candidateNumbers = new CusipNumbers();
  for (const cusip of cusips) candidateNumbers.numberOf(cusip);
  const both = await executor
    .selectFrom('manager_quarters')
    .select('cik')
    .where('quarter', 'in', [previous, quarter])
    .groupBy('cik')
    .having((eb) => eb.fn.countAll(), '=', 2)
    .orderBy('cik')
    .execute();
  const ciks = both.map((row) => row.cik);
  const pairs = new Map<string, HolderPair[]>();
  for (let start = 0; start < ciks.length; start += MANAGERS_PER_READ) {
    const rows = await executor
      .selectFrom('manager_portfolios')
      .select(['cik', 'quarter', 'positions'])
      .where('cik', 'in', ciks.slice(start, start + MANAGERS_PER_READ))
      .where('quarter', 'in', [previous, quarter])
      .execute();
    const before = new Map(
      rows.filter((row) => row.quarter === previous).map((row) => [row.cik, row.positions]),
    );
    for (const row of rows) {
      if (row.quarter !== quarter) continue;
      const then = before.get(row.cik);
      if (!then) continue;
      const held = equityAmong(then, candidateNumbers);
      for (const [n, [sharesAfter, valueAfter]] of equityAmong(row.positions, candidateNumbers)) {
        const was = held.get(n);
        if (!was) continue;
        const cusip = candidateNumbers.cusips[n] as string;
        let list = pairs.get(cusip);
        if (!list) {
          list = [];
          pairs.set(cusip, list);
        }
        list.push({ sharesBefore: was[0], valueBefore: was[1], sharesAfter, valueAfter });
      }
    }
  }
  return pairs;
}

/** Splits between `previous` and `quarter` (consecutive loaded quarters). */
export async function detectSplits(
  executor: Executor,
  quarter: string,
  previous: string,
): Promise<SecuritySplitsTable[]> {
  const cusips = await candidates(executor, quarter, previous);
  if (cusips.length === 0) return [];
  const found: SecuritySplitsTable[] = [];
  for (const [cusip, pairs] of await holderPairs(executor, quarter, previous, cusips)) {
    const split = detectSplit(pairs);
    // biome-ignore format: one row
    if (split) found.push({ quarter, previous_quarter: previous, cusip, factor: split.factor, holders_compared: split.holders, median_ratio: split.median });
  }
  return found.sort((a, b) => (a.cusip < b.cusip ? -1 : 1));
}

/**
 * Rewrites security_splits from `from` on and split_spans whole: for every pair of loaded quarters
 * (before, after] that holds splits of a CUSIP, their product (a manager that skipped a quarter
 * compares across both).
 */
export async function writeSplits(
  handle: DbHandle,
  executor: Executor,
  quarters: readonly string[],
  from: string,
): Promise<void> {
  await executor.deleteFrom('security_splits').where('quarter', '>=', from).execute();
  for (let i = 1; i < quarters.length; i++) {
    const quarter = quarters[i] as string;
    if (quarter < from) continue;
    await insertRows(
      handle,
      'security_splits',
      await detectSplits(executor, quarter, quarters[i - 1] as string),
      executor,
    );
  }
  const splits = await executor
    .selectFrom('security_splits')
    .select(['quarter', 'cusip', 'factor'])
    .execute();
  const spans = new Map<
    string,
    { from_quarter: string; to_quarter: string; cusip: string; factor: number }
  >();
  for (const split of splits) {
    for (const before of quarters.filter((q) => q < split.quarter))
      for (const after of quarters.filter((q) => q >= split.quarter)) {
        const key = `${before}|${after}|${split.cusip}`;
        const span = spans.get(key) ?? {
          from_quarter: before,
          to_quarter: after,
          cusip: split.cusip,
          factor: 1,
        };
        span.factor *= Number(split.factor);
        spans.set(key, span);
      }
  }
  await executor.deleteFrom('split_spans').execute();
  await insertRows(handle, 'split_spans', [...spans.values()], executor);
}
