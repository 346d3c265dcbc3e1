/**
 * Widget fixture with edge cases on purpose: a full 24-quarter history (only the last 20 drawn) with
 * negative ROA, a flat equity ratio, a metric never reported (charge-off rate), nulls inside a series
 * (noncurrent loans), a latest quarter without a value (loans to deposits), a missing quarter row, a
 * hostile name, a very long name with a single quarter, and an institution without financials.
 */
import type { Insertable } from 'kysely';
import type { DbHandle } from '../../src/db/connect.js';
import { searchKey } from '../../src/db/search.js';
import type { FinancialsTable, InstitutionsTable } from '../../src/db/tables.js';
import { quarterEnd, quarterIndex } from '../../src/widgets/series.js';

export const HARBOR = 9001;
export const HOSTILE = 9002;
export const LONG = 9003;
export const EMPTY = 9004;
export const UNKNOWN = 424242;

export const HOSTILE_NAME = '<script>alert(1)</script> & "Co"';
export const LONG_NAME =
  'The First National Bank and Trust Company of the Greater Metropolitan Area of Springfield, Illinois';

/** The newest report date in the fixture. */
export const LATEST = '2026-06-30';

function institution(cert: number, name: string): Insertable<InstitutionsTable> {
  return {
    cert,
    name,
    search_name: searchKey(name),
    city: 'Springfield',
    state: 'IL',
    zip: null,
    charter_class: 'NM',
    asset_size: 1_000_000,
    established: '1990-01-02',
    holding_company: null,
    active: 1,
    inactive_date: null,
    rssd_id: null,
    website: null,
  };
}

const round2 = (value: number) => Math.round(value * 100) / 100;

/** `count` quarter ends ending at LATEST, oldest first. */
export function quarterDates(count: number): string[] {
  const last = quarterIndex(LATEST);
  return Array.from({ length: count }, (_, i) => quarterEnd(last - count + 1 + i));
}

function harborRow(date: string, i: number, count: number): Insertable<FinancialsTable> {
  const wave = Math.sin(i / 2.5);
  const isLatest = i === count - 1;
  return {
    cert: HARBOR,
    report_date: date,
    total_assets: 1_000_000 + i * 10_000,
    total_deposits: 800_000,
    total_loans: 600_000,
    total_equity: 100_000,
    net_income: 5_000,
    roa: round2(0.6 + wave * 0.9), // dips below zero
    roe: round2(8 + wave * 3),
    efficiency_ratio: round2(62 - i * 0.3),
    npl_ratio: i % 5 === 2 ? null : round2(1.2 + wave * 0.4), // nulls inside the series
    tier1_leverage: round2(9.5 + i * 0.05),
    equity_ratio: 10, // flat
    loan_to_deposit: isLatest ? null : round2(75 + wave * 5), // latest quarter unreported
    charge_off_rate: null, // never reported
    net_interest_margin: round2(3.1 + wave * 0.2), // a catalogue percent field beyond the eight
    source: 'fdic',
  };
}

function simpleRow(cert: number, date: string, roa: number): Insertable<FinancialsTable> {
  return {
    ...harborRow(date, 0, 2),
    cert,
    roa,
    npl_ratio: 0.5,
    loan_to_deposit: 80,
    charge_off_rate: 0.1,
  };
}

export async function seedWidgets(handle: DbHandle): Promise<void> {
  await handle.db
    .insertInto('institutions')
    .values([
      institution(HARBOR, 'Harbor Bank & Trust'),
      institution(HOSTILE, HOSTILE_NAME),
      institution(LONG, LONG_NAME),
      institution(EMPTY, 'No Financials Savings'),
    ])
    .execute();
  const dates = quarterDates(24);
  // 2024-Q4 has no row at all: a missing quarter, not just a null value.
  const harbor = dates
    .map((date, i) => harborRow(date, i, dates.length))
    .filter((row) => row.report_date !== '2024-12-31');
  const hostile = quarterDates(8).map((date, i) => simpleRow(HOSTILE, date, round2(1 + i * 0.05)));
  const long = [simpleRow(LONG, LATEST, -0.42)];
  await handle.db
    .insertInto('financials')
    .values([...harbor, ...hostile, ...long])
    .execute();
}
