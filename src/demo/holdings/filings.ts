/**
 * Raw 13F filings of one demo quarter, as a real filer would submit them: one 13F-HR per active
 * manager (VALUE in whole dollars, as every filing from 2023-01-03 on), 13F-NT notices without rows,
 * some NEW HOLDINGS and RESTATEMENT amendments, split rows (same CUSIP over two discretion types),
 * options and PRN notes. Portfolios evolve between quarters (drops, adds, share changes); a stock
 * split multiplies every holder's shares at the start of its quarter (universe.ts).
 */
import type { Insertable } from 'kysely';
import { quarterEnd } from '../../holdings/identifiers.js';
import type { Filings13fTable, InfoRow13f } from '../../holdings/tables.js';
import { addDays } from '../../time/calendar.js';
import type { DemoManager } from './managers.js';
import type { Rng } from './random.js';
import { drawSecurity, type Universe } from './universe.js';

type Row = InfoRow13f;
export interface Sink {
  filing(filing: Insertable<Filings13fTable>): void;
  rows(rows: Row[]): Promise<void>;
}

let accessionSeq = 0;

function accession(cik: string, filed: string): string {
  accessionSeq += 1;
  return `${cik}-${filed.slice(2, 4)}-${String(accessionSeq % 1_000_000).padStart(6, '0')}`;
}

function addPositions(
  rng: Rng,
  m: DemoManager,
  universe: Universe,
  q: number,
  count: number,
  budget: number,
) {
  for (let attempts = 0, added = 0; added < count && attempts < count * 20; attempts++) {
    const index = drawSecurity(rng, universe);
    if (m.holdings.has(index)) continue;
    const security = universe.securities[index];
    if (!security) continue;
    const dollars = budget * rng.logNormal(1, 0.7);
    const price = security.prices[q] as number;
    const units =
      security.share_type === 'PRN' ? Math.round(dollars / price) * 100 : Math.round(dollars / price);
    m.holdings.set(index, Math.max(1, units));
    added++;
  }
}

function buildPortfolio(rng: Rng, m: DemoManager, universe: Universe, q: number) {
  const budget = m.aum / m.targetPositions;
  for (let i = 0; i < universe.megaCaps && m.holdings.size < m.targetPositions; i++) {
    if (rng.chance(m.targetPositions >= 8 ? 0.85 : 0.4) && !m.holdings.has(i)) {
      const price = universe.securities[i]?.prices[q] as number;
      m.holdings.set(i, Math.max(1, Math.round((budget * rng.logNormal(2, 0.6)) / price)));
    }
  }
  addPositions(rng, m, universe, q, m.targetPositions - m.holdings.size, budget);
}

function evolvePortfolio(rng: Rng, m: DemoManager, universe: Universe, q: number) {
  for (const [index, units] of m.holdings) {
    if (rng.chance(index < universe.megaCaps ? 0.02 : 0.08)) {
      m.holdings.delete(index);
      continue;
    }
    const next = rng.chance(0.45) ? Math.max(1, Math.round(units * rng.logNormal(1, 0.2))) : units;
    m.holdings.set(index, next);
  }
  const target = Math.round(m.targetPositions * rng.logNormal(1, 0.05));
  const adds = Math.max(0, target - m.holdings.size) + (rng.chance(0.5) ? 1 : 0);
  // New names get the manager's usual ticket size (not the current average, which would compound).
  addPositions(rng, m, universe, q, adds, m.aum / m.targetPositions);
}

function holdingRows(
  rng: Rng,
  m: DemoManager,
  universe: Universe,
  q: number,
  indices: Iterable<number>,
): Row[] {
  const rows: Row[] = [];
  for (const index of indices) {
    const s = universe.securities[index];
    const units = m.holdings.get(index);
    if (!s || units === undefined) continue;
    const price = s.prices[q] as number;
    const value = Math.round(s.share_type === 'PRN' ? (units * price) / 100 : units * price);
    const row = (shares: number, rowValue: number, discretion: string): Row => ({
      accession_number: '',
      cusip: s.cusip,
      issuer: s.issuer,
      title_of_class: s.title_of_class,
      value: rowValue,
      shares,
      share_type: s.share_type,
      put_call: null,
      investment_discretion: discretion,
      voting_sole: shares,
      voting_shared: 0,
      voting_none: 0,
    });
    if (units > 10 && rng.chance(0.08)) {
      const part = Math.floor(units * 0.3);
      const partValue = Math.round((value * part) / units);
      rows.push(row(part, partValue, 'DFND'), row(units - part, value - partValue, 'SOLE'));
    } else {
      rows.push(row(units, value, 'SOLE'));
    }
  }
  return rows;
}

function optionRows(rng: Rng, universe: Universe, q: number): Row[] {
  const rows: Row[] = [];
  for (let i = rng.int(1, 6); i > 0; i--) {
    const s = universe.securities[rng.int(0, 60)];
    if (s?.share_type !== 'SH') continue;
    const shares = Math.round(rng.logNormal(20_000, 1));
    const put_call = rng.chance(0.5) ? 'Put' : 'Call';
    rows.push({
      accession_number: '',
      cusip: s.cusip,
      issuer: s.issuer,
      title_of_class: s.title_of_class,
      value: Math.round(shares * (s.prices[q] as number)),
      shares,
      share_type: 'SH',
      put_call,
      investment_discretion: 'SOLE',
      voting_sole: 0,
      voting_shared: 0,
      voting_none: shares,
    });
  }
  return rows;
}

interface FilingContext {
  m: DemoManager;
  quarter: string;
  period: string;
  /** Filings dated after this day are not filed yet: the demo's last season is still open. */
  cutoff: string;
}

function filingRow(
  ctx: FilingContext,
  accessionNumber: string,
  filed: string,
  form: string,
  amendment: string | null,
  rows: Row[],
): Insertable<Filings13fTable> {
  return {
    accession_number: accessionNumber,
    cik: ctx.m.cik,
    period_of_report: ctx.period,
    quarter: ctx.quarter,
    filing_date: filed,
    form_type: form,
    amendment_type: amendment,
    amendment_no: amendment ? 1 : null,
    manager_name: ctx.m.name,
    city: ctx.m.city,
    state: ctx.m.state,
    country: ctx.m.country,
    report_type: form.startsWith('13F-NT') ? '13F NOTICE' : '13F HOLDINGS REPORT',
    table_value_total: form.startsWith('13F-NT') ? null : rows.reduce((sum, r) => sum + Number(r.value), 0),
    table_entry_total: form.startsWith('13F-NT') ? null : rows.length,
  };
}

async function emit(
  sink: Sink,
  ctx: FilingContext,
  filed: string,
  form: string,
  amendment: string | null,
  rows: Row[],
) {
  const number = accession(ctx.m.cik, filed);
  if (filed > ctx.cutoff) return;
  sink.filing(filingRow(ctx, number, filed, form, amendment, rows));
  for (const row of rows) row.accession_number = number;
  await sink.rows(rows);
}

/** A first report that a RESTATEMENT later corrects: one row missing, a few values mis-stated. */
function flawed(rng: Rng, rows: Row[]): Row[] {
  return rows
    .slice(1)
    .map((row) => (rng.chance(0.2) ? { ...row, value: Math.round(Number(row.value) * 1.1) } : { ...row }));
}

async function reportQuarter(rng: Rng, sink: Sink, ctx: FilingContext, universe: Universe, q: number) {
  const { m } = ctx;
  if (m.holdings.size === 0) buildPortfolio(rng, m, universe, q);
  else evolvePortfolio(rng, m, universe, q);
  const rows = holdingRows(rng, m, universe, q, m.holdings.keys());
  if (m.tradesOptions) rows.push(...optionRows(rng, universe, q));
  const filed = addDays(ctx.period, rng.int(20, 45));
  if (rows.length > 3 && rng.chance(0.015)) {
    await emit(sink, ctx, filed, '13F-HR', null, flawed(rng, rows));
    await emit(sink, ctx, addDays(filed, rng.int(20, 50)), '13F-HR/A', 'RESTATEMENT', rows);
  } else {
    await emit(sink, ctx, filed, '13F-HR', null, rows);
  }
  if (rng.chance(0.02)) {
    const before = new Set(m.holdings.keys());
    addPositions(rng, m, universe, q, rng.int(1, 4), m.aum / m.targetPositions);
    const added = [...m.holdings.keys()].filter((index) => !before.has(index));
    const extra = holdingRows(rng, m, universe, q, added);
    if (extra.length > 0)
      await emit(sink, ctx, addDays(filed, rng.int(10, 40)), '13F-HR/A', 'NEW HOLDINGS', extra);
  }
}

/**
 * Emits every filing of quarter number `q` (label `quarter`) filed by `cutoff` through `sink`; the
 * later ones are drawn all the same, so the cutoff changes nothing else.
 */
export async function generateQuarter(
  rng: Rng,
  managers: readonly DemoManager[],
  universe: Universe,
  q: number,
  quarter: string,
  sink: Sink,
  cutoff = '9999-12-31',
): Promise<void> {
  const period = quarterEnd(quarter);
  for (const split of universe.splits.filter((s) => s.q === q))
    for (const m of managers) {
      const units = m.holdings.get(split.index);
      // A reverse split pays cash for fractions of a share.
      if (units !== undefined)
        m.holdings.set(split.index, Math.max(1, Math.floor(units * split.factor + 1e-9)));
    }
  for (const m of managers) {
    const kind = m.schedule[q];
    if (!kind) continue;
    const ctx = { m, quarter, period, cutoff };
    if (kind === 'NT') {
      await emit(sink, ctx, addDays(period, rng.int(20, 45)), '13F-NT', null, []);
      continue;
    }
    await reportQuarter(rng, sink, ctx, universe, q);
  }
}

/** Restarts accession numbering so the same seed gives the same accessions. */
export function resetAccessions(): void {
  accessionSeq = 0;
}
