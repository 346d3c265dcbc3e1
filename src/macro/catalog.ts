/**
 * The 12 FRED series the banking service serves (seed: "Available macro series"). The FRED ingest
 * fetches exactly these, the demo generates them, and `/api/v1/macro` and the holdings `/api/macro`
 * accept only these IDs. `title` is the name the seed gives the series (what the API shows);
 * `fredTitle` is FRED's own, longer title. Units, seasonal adjustment and start dates are FRED's.
 */

export type MacroFrequency = 'Daily' | 'Weekly' | 'Monthly' | 'Quarterly';

export interface MacroSeriesDefinition {
  /** FRED series ID, upper case. */
  readonly id: string;
  /** Display title (the seed's name for the series). */
  readonly title: string;
  /** FRED's official series title. */
  readonly fredTitle: string;
  /** FRED units label. */
  readonly units: string;
  readonly frequency: MacroFrequency;
  /** FRED seasonal adjustment label. */
  readonly seasonalAdjustment: 'Seasonally Adjusted' | 'Not Seasonally Adjusted';
  /** Date of the first FRED observation, YYYY-MM-DD. */
  readonly observationStart: string;
  /** Weekly series: the weekday observations fall on (FRED "Weekly, Ending Wednesday"). */
  readonly weekday?: 'Wednesday';
}

const PERCENT = 'Percent';
const NSA = 'Not Seasonally Adjusted';
const SA = 'Seasonally Adjusted';

export const MACRO_SERIES: readonly MacroSeriesDefinition[] = [
  {
    id: 'FEDFUNDS',
    title: 'Federal Funds Effective Rate',
    fredTitle: 'Federal Funds Effective Rate',
    units: PERCENT,
    frequency: 'Monthly',
    seasonalAdjustment: NSA,
    observationStart: '1954-07-01',
  },
  {
    id: 'DGS10',
    title: '10-Year Treasury Constant Maturity Rate',
    fredTitle:
      'Market Yield on U.S. Treasury Securities at 10-Year Constant Maturity, Quoted on an Investment Basis',
    units: PERCENT,
    frequency: 'Daily',
    seasonalAdjustment: NSA,
    observationStart: '1962-01-02',
  },
  {
    id: 'DGS2',
    title: '2-Year Treasury Constant Maturity Rate',
    fredTitle:
      'Market Yield on U.S. Treasury Securities at 2-Year Constant Maturity, Quoted on an Investment Basis',
    units: PERCENT,
    frequency: 'Daily',
    seasonalAdjustment: NSA,
    observationStart: '1976-06-01',
  },
  {
    id: 'T10Y2Y',
    title: '10Y-2Y Treasury Spread (Yield Curve)',
    fredTitle: '10-Year Treasury Constant Maturity Minus 2-Year Treasury Constant Maturity',
    units: PERCENT,
    frequency: 'Daily',
    seasonalAdjustment: NSA,
    observationStart: '1976-06-01',
  },
  {
    id: 'UNRATE',
    title: 'Unemployment Rate',
    fredTitle: 'Unemployment Rate',
    units: PERCENT,
    frequency: 'Monthly',
    seasonalAdjustment: SA,
    observationStart: '1948-01-01',
  },
  {
    id: 'CPIAUCSL',
    title: 'Consumer Price Index (CPI)',
    fredTitle: 'Consumer Price Index for All Urban Consumers: All Items in U.S. City Average',
    units: 'Index 1982-1984=100',
    frequency: 'Monthly',
    seasonalAdjustment: SA,
    observationStart: '1947-01-01',
  },
  {
    id: 'M2SL',
    title: 'M2 Money Stock',
    fredTitle: 'M2',
    units: 'Billions of Dollars',
    frequency: 'Monthly',
    seasonalAdjustment: SA,
    observationStart: '1959-01-01',
  },
  {
    id: 'TOTBKCR',
    title: 'Bank Credit, All Commercial Banks',
    fredTitle: 'Bank Credit, All Commercial Banks',
    units: 'Billions of U.S. Dollars',
    frequency: 'Weekly',
    seasonalAdjustment: SA,
    observationStart: '1973-01-03',
    weekday: 'Wednesday',
  },
  {
    id: 'DRCCLACBS',
    title: 'Credit Card Delinquency Rate',
    fredTitle: 'Delinquency Rate on Credit Card Loans, All Commercial Banks',
    units: PERCENT,
    frequency: 'Quarterly',
    seasonalAdjustment: SA,
    observationStart: '1991-01-01',
  },
  {
    id: 'DRSFRMACBS',
    title: 'Mortgage Delinquency Rate',
    fredTitle:
      'Delinquency Rate on Single-Family Residential Mortgages, Booked in Domestic Offices, All Commercial Banks',
    units: PERCENT,
    frequency: 'Quarterly',
    seasonalAdjustment: SA,
    observationStart: '1991-01-01',
  },
  {
    id: 'TOTLL',
    title: 'Total Loans & Leases, All Commercial Banks',
    fredTitle: 'Loans and Leases in Bank Credit, All Commercial Banks',
    units: 'Billions of U.S. Dollars',
    frequency: 'Weekly',
    seasonalAdjustment: SA,
    observationStart: '1973-01-03',
    weekday: 'Wednesday',
  },
  {
    id: 'USREC',
    title: 'NBER Recession Indicator',
    fredTitle:
      'NBER based Recession Indicators for the United States from the Period following the Peak through the Trough',
    units: '+1 or 0',
    frequency: 'Monthly',
    seasonalAdjustment: NSA,
    observationStart: '1854-12-01',
  },
];

export const MACRO_SERIES_IDS: readonly string[] = MACRO_SERIES.map((s) => s.id);

const BY_ID = new Map(MACRO_SERIES.map((s) => [s.id, s]));

/** Looks a series up by ID, case-insensitively (surrounding spaces ignored); undefined if unknown. */
export function findMacroSeries(id: string): MacroSeriesDefinition | undefined {
  return BY_ID.get(id.trim().toUpperCase());
}

export function isMacroSeriesId(id: string): boolean {
  return findMacroSeries(id) !== undefined;
}
