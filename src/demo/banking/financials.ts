/**
 * Demo quarterly financials. Each institution gets its own random stream (seed + cert), a growth
 * rate and a profile (funding, lending, capital, profitability, credit quality), moved each quarter
 * by noise and by a shared cycle (2020 deposit surge and provisions, 2022 rate shock). The last
 * quarter's total assets equal the institution's `asset_size`. The model draws the totals (assets,
 * deposits, loans, equity) and the quarter's ROA, NPL ratio, efficiency ratio, charge-off rate and
 * leverage ratio; financials-catalogue.ts turns them into amounts (net income, noncurrent loans, …)
 * and fills every other catalogue field, the ratios following from the amounts.
 */
import type { Insertable } from 'kysely';
import type { FinancialsTable } from '../../db/tables.js';
import type { DemoScale } from '../types.js';
import { type BaseTotals, CatalogueBank } from './financials-catalogue.js';
import type { InstitutionRow } from './institutions.js';
import type { Random } from './random.js';

export const LAST_REPORT_DATE = '2026-09-30';
const FIRST_REPORT_DATE: Record<DemoScale, string> = { small: '2016-03-31', full: '2000-03-31' };

const QUARTER_ENDS = ['03-31', '06-30', '09-30', '12-31'];

export function quarterEnds(from: string, to: string): string[] {
  const dates: string[] = [];
  for (let year = Number(from.slice(0, 4)); year <= Number(to.slice(0, 4)); year++) {
    for (const end of QUARTER_ENDS) {
      const date = `${year}-${end}`;
      if (date >= from && date <= to) dates.push(date);
    }
  }
  return dates;
}

interface CycleEffect {
  growth: number;
  roa: number;
  npl: number;
  equity: number;
}

/** Shared cycle effects by quarter: asset growth (log), ROA shift (points), NPL multiplier, equity shift. */
function cycleOf(date: string): CycleEffect {
  const year = Number(date.slice(0, 4));
  const q = date.slice(5);
  if (date === '2020-06-30') return { growth: 0.06, roa: -0.35, npl: 1.25, equity: -0.6 };
  if (year === 2020) return { growth: 0.015, roa: -0.2, npl: 1.2, equity: -0.3 };
  if (year === 2021) return { growth: 0.02, roa: 0.1, npl: 1.15, equity: -0.4 };
  if (year === 2022) return { growth: 0.005, roa: 0.05, npl: 0.95, equity: q === '12-31' ? -1.1 : -0.8 };
  if (year === 2023) return { growth: 0.004, roa: 0, npl: 1.0, equity: -0.5 };
  if (year >= 2008 && year <= 2010) return { growth: 0.002, roa: -0.6, npl: 2.6, equity: -0.4 };
  return { growth: 0, roa: 0, npl: year < 2012 ? 1.3 : 1, equity: 0 };
}

/** cycleOf() per report date, computed once (it is looked up twice for every financial row). */
const cycles = new Map<string, Readonly<CycleEffect>>();
function cycle(date: string): Readonly<CycleEffect> {
  let effect = cycles.get(date);
  if (!effect) {
    effect = cycleOf(date);
    cycles.set(date, effect);
  }
  return effect;
}

interface Profile {
  growth: number;
  deposits: number;
  loans: number;
  equity: number;
  roa: number;
  npl: number;
  reportsLeverage: boolean;
}

function profileOf(random: Random, institution: InstitutionRow): Profile {
  const lends = !random.chance(0.004);
  return {
    growth: random.normal(0.05, 0.035),
    deposits: Math.min(0.93, Math.max(0.55, random.normal(0.84, 0.04))),
    loans: lends ? Math.min(0.9, Math.max(0.08, random.normal(0.66, 0.11))) : 0,
    equity: Math.min(25, Math.max(6, random.normal(10.8, 2))),
    roa: random.chance(0.05) ? random.uniform(-0.6, 0.3) : random.normal(1.05, 0.33),
    npl: random.logNormal(Math.log(0.55), 0.6),
    reportsLeverage: institution.charter_class !== 'OI' && !random.chance(0.01),
  };
}

/** Report dates while the institution existed (from its establishment to its last day). */
function activeQuarters(institution: InstitutionRow, all: string[]): string[] {
  const from =
    institution.established && institution.established > all[0]! ? institution.established : all[0]!;
  const to = institution.inactive_date ?? LAST_REPORT_DATE;
  return all.filter((date) => date >= from && date <= to);
}

function institutionFinancials(random: Random, institution: InstitutionRow, dates: string[]) {
  const profile = profileOf(random, institution);
  const bank = new CatalogueBank(
    random.fork('catalogue'),
    institution.asset_size ?? 0,
    profile.reportsLeverage,
  );
  const last = dates.length - 1;
  // Walk backwards from the latest assets so the last report equals asset_size.
  const logAssets: number[] = new Array(dates.length);
  logAssets[last] = Math.log(Math.max(1000, institution.asset_size ?? 50_000));
  for (let i = last; i > 0; i--) {
    const step = profile.growth / 4 + cycle(dates[i]!).growth + random.normal(0, 0.015);
    logAssets[i - 1] = (logAssets[i] as number) - step;
  }
  const totals: BaseTotals = { assets: 0, deposits: 0, loans: 0, equity: 0 };
  const base = bank.base;
  return dates.map((date, i) => {
    const c = cycle(date);
    const assets =
      i === last
        ? Math.round(institution.asset_size ?? Math.exp(logAssets[i]!))
        : Math.round(Math.exp(logAssets[i]!));
    const depositShare = Math.min(
      0.95,
      profile.deposits + (c.growth > 0.01 ? 0.02 : 0) + random.normal(0, 0.008),
    );
    const loanShare =
      profile.loans === 0
        ? 0
        : Math.max(0.02, profile.loans - (c.growth > 0.01 ? 0.03 : 0) + random.normal(0, 0.01));
    const equity = Math.max(2, profile.equity + c.equity + random.normal(0, 0.25));
    // The quarter's ROA (annualised) and NPL ratio; the draws keep their order so the totals stay as they were.
    const roa = profile.roa + c.roa + random.normal(0, 0.12);
    const npl = profile.npl * c.npl * Math.exp(random.normal(0, 0.15));
    const efficiencyNoise = random.chance(0.004) ? 0 : random.normal(0, 4);
    const leverage = profile.reportsLeverage ? Math.max(3, equity - random.normal(0.4, 0.4)) : Number.NaN;
    totals.assets = assets;
    totals.deposits = Math.round(assets * depositShare);
    totals.loans = Math.round(assets * loanShare);
    totals.equity = Math.round((assets * equity) / 100);
    const chargeOffRate = totals.loans > 0 ? Math.max(-0.05, npl * 0.28 + random.normal(0, 0.05)) : 0;
    base.netIncome = Math.round((assets * roa) / 400);
    base.noncurrentLoans = Math.round((totals.loans * npl) / 100);
    base.netChargeOffs = Math.round((totals.loans * chargeOffRate) / 400);
    base.efficiency = Math.min(150, Math.max(30, 95 - roa * 28 + efficiencyNoise));
    base.tier1Leverage = leverage;
    return bank.row(institution.cert, date, totals);
  });
}

/**
 * Financials in batches of about `batchSize` rows. `small`: active institutions, 2016-03-31 …
 * 2026-09-30. `full`: every institution for each quarter it was active since 2000-03-31.
 */
export function* financialBatches(
  root: Random,
  institutions: readonly InstitutionRow[],
  scale: DemoScale,
  batchSize = 20_000,
): Generator<Insertable<FinancialsTable>[]> {
  const all = quarterEnds(FIRST_REPORT_DATE[scale], LAST_REPORT_DATE);
  let batch: Insertable<FinancialsTable>[] = [];
  for (const institution of institutions) {
    if (scale === 'small' && institution.active !== 1) continue;
    const dates = activeQuarters(institution, all);
    if (dates.length === 0) continue;
    const rows = institutionFinancials(root.fork(`financials:${institution.cert}`), institution, dates);
    batch.push(...withHoldingCompany(institution, rows));
    if (batch.length >= batchSize) {
      yield byReportDate(batch);
      batch = [];
    }
  }
  if (batch.length > 0) yield byReportDate(batch);
}

/** Banks whose holding company changed: every 37th with one and more than eight reports. */
export function changedHoldingCompany(institution: InstitutionRow, reports: number) {
  if (institution.holding_company == null || reports <= 8 || institution.cert % 37 !== 0) return null;
  return { name: `${institution.city ?? 'First'} Bancorporation`, rssd: 4_000_000 + institution.cert };
}

/**
 * The holding company per report date: the institution's current one, except that for the banks of
 * changedHoldingCompany() an earlier parent held the first half of the reports (an acquisition), so
 * the identity graph has dated links. No random draw, so the other demo values stay as they were.
 */
function withHoldingCompany(institution: InstitutionRow, rows: Insertable<FinancialsTable>[]) {
  const earlier = changedHoldingCompany(institution, rows.length);
  const switchAt = Math.floor(rows.length / 2);
  return rows.map((row, i) => {
    const parent = earlier && i < switchAt ? earlier : null;
    row.holding_company = parent ? parent.name : (institution.holding_company ?? null);
    row.holding_company_rssd = parent ? parent.rssd : (institution.holding_company_rssd ?? null);
    return row;
  });
}

/**
 * A batch in (report date, cert) order. Real loads arrive one report date at a time, so a date's
 * rows sit together on disk; written bank by bank, the demo would spread every date over the whole
 * table and make each per-date read (lists, peers, aggregates) touch thousands of scattered pages.
 */
function byReportDate(batch: Insertable<FinancialsTable>[]): Insertable<FinancialsTable>[] {
  const keyed = batch.map((row) => ({
    key: `${row.report_date} ${String(row.cert).padStart(10, '0')}`,
    row,
  }));
  keyed.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return keyed.map(({ row }) => row);
}
