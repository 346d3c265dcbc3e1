/**
 * Positions of a manager's quarter, summed in memory from the packed rows of its applied filings:
 * one row per (CUSIP, share type, put/call). VALUE is converted to dollars first (thousands × 1000
 * for filings made before 2023-01-03), summed exactly as integers (exact up to 2^53 dollars, about
 * 9 quadrillion), then divided by 1000: the stored value is thousands of USD, NOT rounded (a dollar
 * filing's 1,234,567 becomes 1234.567). Share type and put/call are upper-cased and trimmed.
 */
import { insertRows } from '../../../../../db/bulk.js';
import type { DbHandle } from '../../../../../db/connect.js';
import { DOLLAR_VALUES_FROM } from '../../../../../holdings/identifiers.js';
import type { PositionsTable } from '../../../../../holdings/tables.js';
import type { InfoRowFields } from '../info-row-codec.js';
import type { Executor } from './executor.js';
import type { FilingHeader, ResolvedQuarter } from './resolve.js';

export type Position = PositionsTable;

export async function writeAppliedFilings(
  handle: DbHandle,
  executor: Executor,
  resolved: readonly ResolvedQuarter[],
): Promise<void> {
  const rows = resolved.flatMap((r) => [
    { quarter: r.quarter, cik: r.cik, accession_number: r.base.accession_number, role: 'base' },
    ...r.additions.map((a) => ({
      quarter: r.quarter,
      cik: r.cik,
      accession_number: a.accession_number,
      role: 'addition',
    })),
  ]);
  await insertRows(handle, 'applied_filings_13f', rows, executor);
}

/** The filings whose rows make up the quarter: the base, then NEW HOLDINGS additions. */
export function appliedFilings(quarter: ResolvedQuarter): FilingHeader[] {
  return [quarter.base, ...quarter.additions];
}

/** The derivation's normalisation of SHRSORPRNAMT's type; a load that sums rows itself uses it too. */
export const normalisedShareType = (text: string) =>
  text === 'SH' || text === 'PRN' ? text : text.trim().toUpperCase();
/** PUTCALL normalised: `PUT`, `CALL`, another upper-cased text, or null. */
export const normalisedPutCall = (text: string | null) =>
  text === null ? null : text === 'PUT' || text === 'CALL' ? text : text.trim().toUpperCase() || null;

const byKey = (a: Position, b: Position) =>
  a.cusip < b.cusip
    ? -1
    : a.cusip > b.cusip
      ? 1
      : a.share_type < b.share_type
        ? -1
        : a.share_type > b.share_type
          ? 1
          : (a.put_call ?? '') < (b.put_call ?? '')
            ? -1
            : 1;

/**
 * Sums rows into positions, one per (CUSIP, share type, put/call). (Hot: millions of rows per
 * quarter. Plain equity rows are keyed by the CUSIP alone, so most rows allocate nothing; `value`
 * holds dollars until the end.)
 */
export class PositionSums {
  private readonly sums = new Map<string, Position>();

  constructor(
    private readonly quarter: string,
    private readonly cik: string,
  ) {}

  /** A row's normalised CUSIP, share type and put/call; `dollars` is its VALUE in dollars. */
  add(cusip: string, shareType: string, putCall: string | null, dollars: number, shares: number): void {
    const equity = shareType === 'SH' && putCall === null;
    const key = equity ? cusip : `${cusip}|${shareType}|${putCall ?? ''}`;
    const sum = this.sums.get(key);
    if (sum) {
      sum.value += dollars;
      sum.shares += shares;
    } else {
      // biome-ignore format: one position
      this.sums.set(key, { quarter: this.quarter, cik: this.cik, cusip, share_type: shareType, put_call: putCall,
        value: dollars, shares, is_equity: equity ? 1 : 0 });
    }
  }

  /** The positions ordered by (CUSIP, share type, put/call), values in thousands of USD. */
  positions(): Position[] {
    const positions = [...this.sums.values()].sort(byKey);
    for (const position of positions) position.value /= 1000;
    return positions;
  }
}

/** VALUE × this = dollars: filings made before 2023-01-03 report thousands. */
export const dollarScale = (filingDate: string) => (filingDate < DOLLAR_VALUES_FROM ? 1000 : 1);

/**
 * A manager's positions for one quarter, ordered by (CUSIP, share type, put/call). `rowsOf` gives
 * each applied filing's rows; `onRow` sees every row that counted, with its normalised CUSIP.
 */
export function managerPositions(
  quarter: ResolvedQuarter,
  rowsOf: (accession: string) => readonly InfoRowFields[],
  onRow?: (cusip: string, row: InfoRowFields) => void,
): Position[] {
  const sums = new PositionSums(quarter.quarter, quarter.cik);
  for (const filing of appliedFilings(quarter)) {
    const scale = dollarScale(filing.filing_date);
    for (const row of rowsOf(filing.accession_number)) {
      const cusip = row[0].toUpperCase();
      sums.add(cusip, normalisedShareType(row[5]), normalisedPutCall(row[6]), row[3] * scale, row[4]);
      onRow?.(cusip, row);
    }
  }
  return sums.positions();
}
