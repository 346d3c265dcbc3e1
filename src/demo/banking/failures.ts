/**
 * Demo bank failures: exactly 4,044 from 1934 to 2025, with yearly counts shaped like the real
 * history. FAILURES_PER_YEAR was derived (at development time, not at run time) from FDIC
 * BankFind's failures file (`../shared/realdata/fdic_failures/fdic_failures_bankfind_1934_2026.csv`,
 * 4,113 records 1934–2025) by scaling each year's count to a total of 4,044 with largest remainders.
 * Resolution types, insurance funds and missing certificate numbers follow each era; payouts have
 * no acquirer (null).
 */
import type { Insertable } from 'kysely';
import type { FailuresTable } from '../../db/tables.js';
import { citiesOf, STATE_CODES, STATE_WEIGHTS } from './geography.js';
import { acquirerName, institutionName } from './names.js';
import { type Random, round } from './random.js';

export const FIRST_FAILURE_YEAR = 1934;

// biome-ignore format: ten years per line
export const FAILURES_PER_YEAR: readonly number[] = [
  9, 24, 68, 74, 73, 59, 42, 15, 20, 5, // 1934–1943
  2, 1, 1, 5, 3, 4, 4, 2, 3, 2, // 1944–1953
  2, 5, 2, 1, 4, 3, 1, 5, 1, 2, // 1954–1963
  7, 5, 7, 4, 3, 9, 7, 7, 2, 6, // 1964–1973
  4, 13, 17, 6, 7, 10, 22, 39, 117, 97, // 1974–1983
  104, 177, 200, 257, 462, 525, 375, 266, 178, 49, // 1984–1993
  15, 8, 6, 1, 3, 8, 7, 4, 11, 3, // 1994–2003
  4, 0, 0, 3, 29, 145, 154, 90, 50, 23, // 2004–2013
  18, 8, 5, 8, 0, 4, 4, 0, 0, 5, // 2014–2023
  2, 2, // 2024–2025
];

/** States that dominated each wave (1980s oil patch and S&L crisis, 2009–2012 real-estate bust). */
function failureState(random: Random, year: number): string {
  if (year >= 1982 && year <= 1992 && random.chance(0.55)) {
    return random.weighted(['TX', 'OK', 'LA', 'CA', 'FL', 'NJ', 'MA', 'CO'], [40, 10, 10, 10, 8, 6, 6, 6]);
  }
  if (year >= 2008 && year <= 2013 && random.chance(0.6)) {
    return random.weighted(['GA', 'FL', 'IL', 'CA', 'MN', 'WA', 'MI', 'MO'], [22, 18, 15, 12, 6, 6, 5, 5]);
  }
  return random.weighted(STATE_CODES, STATE_WEIGHTS);
}

function resolutionType(random: Random, year: number): string {
  if (year < 1950) return random.weighted(['PO', 'PA'], [55, 45]);
  if (year < 1982) return random.weighted(['PA', 'PO', 'A/A', 'IDT'], [55, 25, 10, 10]);
  if (year < 1993) return random.weighted(['PA', 'A/A', 'IDT', 'PO', 'PI', 'MGR'], [48, 16, 12, 12, 8, 4]);
  return random.weighted(['PA', 'PI', 'IDT', 'PO'], [80, 8, 4, 8]);
}

/** Insurance fund by era and kind of institution (savings institutions had FSLIC, then RTC/SAIF). */
function insuranceFund(random: Random, year: number): string {
  const thrift = random.chance(year >= 1980 && year <= 1995 ? 0.4 : 0.15);
  if (year < 1989) return thrift ? 'FSLIC' : 'FDIC';
  if (year <= 1995) return thrift ? 'RTC' : 'BIF';
  if (year <= 2005) return thrift ? 'SAIF' : 'BIF';
  return 'DIF';
}

function closingDate(random: Random, year: number): string {
  const month = random.int(1, 12);
  const day = random.int(1, 28);
  return `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/** Typical size at failure (thousands of USD) grows with the era. */
function failureAssets(random: Random, year: number): number {
  const mu = year < 1960 ? 7.2 : year < 1980 ? 9.5 : year < 2000 ? 10.8 : 11.8;
  return Math.round(random.logNormal(mu, 1.3));
}

function failure(random: Random, year: number, cert: number | null): Insertable<FailuresTable> {
  const state = failureState(random, year);
  const city = random.pick(citiesOf(state));
  const type = resolutionType(random, year);
  const assets = random.chance(year < 1960 ? 0.15 : 0.02) ? null : failureAssets(random, year);
  const paidOut = type === 'PO' || (type === 'MGR' && random.chance(0.5));
  return {
    cert,
    name: institutionName(random, state, city),
    city,
    state,
    closing_date: closingDate(random, year),
    acquiring_institution: paidOut ? null : acquirerName(random, random.pick(citiesOf(state))),
    resolution_type: type,
    insurance_fund: insuranceFund(random, year),
    total_assets: assets,
    total_deposits: assets === null ? null : Math.round(assets * random.uniform(0.7, 0.97)),
    estimated_loss:
      assets === null || random.chance(0.05) ? null : round(assets * random.uniform(0.03, 0.4), 0),
  };
}

/** Early failures often have no certificate number in FDIC's records. */
function hasCert(random: Random, year: number): boolean {
  if (year < 1960) return random.chance(0.3);
  if (year < 1986) return random.chance(0.8);
  return true;
}

export function generateFailures(random: Random, spareCerts: readonly number[]): Insertable<FailuresTable>[] {
  const rows: Insertable<FailuresTable>[] = [];
  let nextCert = 0;
  FAILURES_PER_YEAR.forEach((count, index) => {
    const year = FIRST_FAILURE_YEAR + index;
    for (let i = 0; i < count; i++) {
      const cert = hasCert(random, year) ? (spareCerts[nextCert++] as number) : null;
      rows.push(failure(random, year, cert));
    }
  });
  return rows.sort((a, b) =>
    a.closing_date < b.closing_date ? -1 : a.closing_date > b.closing_date ? 1 : 0,
  );
}
