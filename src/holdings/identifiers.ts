/** Identifier and quarter rules shared by the derivation, the demo and the API (SPEC §3). */

/** The 10-digit zero-padded form of a 1–10 digit CIK (`1067983` → `0001067983`). */
export function padCik(cik: string | number): string {
  return String(cik).trim().padStart(10, '0');
}

export const CIK_PATTERN = /^\d{1,10}$/;
export const QUARTER_PATTERN = /^\d{4}-Q[1-4]$/;
export const CUSIP_PATTERN = /^[A-Z0-9]{9}$/;

/** `YYYY-QN` of a `YYYY-MM-DD` date (a 13F period of report is a quarter end). */
export function quarterOfDate(date: string): string {
  const month = Number(date.slice(5, 7));
  return `${date.slice(0, 4)}-Q${Math.ceil(month / 3)}`;
}

/** The last calendar day of a `YYYY-QN` quarter, YYYY-MM-DD. */
export function quarterEnd(quarter: string): string {
  const year = quarter.slice(0, 4);
  const q = Number(quarter.slice(6));
  return `${year}-${['03-31', '06-30', '09-30', '12-31'][q - 1]}`;
}

/** The quarter after `quarter`. */
export function nextQuarter(quarter: string): string {
  const year = Number(quarter.slice(0, 4));
  const q = Number(quarter.slice(6));
  return q === 4 ? `${year + 1}-Q1` : `${year}-Q${q + 1}`;
}

/**
 * Filings made on or after this date report VALUE in whole dollars; earlier ones in thousands of
 * dollars. The rule follows the FILING date, not the period (an amendment of a 2022 period filed in
 * 2023 reports dollars).
 */
export const DOLLAR_VALUES_FROM = '2023-01-03';
