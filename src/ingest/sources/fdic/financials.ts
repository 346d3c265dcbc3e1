/**
 * `fdic-financials`: quarterly call-report figures from BankFind, one request slice per report date
 * (REPDTE) so no slice exceeds the API's result window. A load replaces the report dates it
 * contains; FFIEC-derived rows of those dates are replaced only where FDIC has the same bank.
 */
import type { Insertable } from 'kysely';
import type { FinancialsTable } from '../../../db/tables.js';
import type { IngestContext, IngestSource } from '../../core/types.js';
import { FieldError, first, integer, number, requiredDate, type UpstreamRecord } from '../values.js';
import { bankFindApiPages, bankFindUrl, inputPages, stageRecords } from './bankfind.js';

export const FINANCIAL_FIELDS = [
  'CERT',
  'REPDTE',
  'ASSET',
  'DEP',
  'LNLSGR',
  'EQ',
  'EQTOT',
  'NETINC',
  'ROA',
  'ROE',
  'EEFFR',
  'NCLNLSR',
  'RBC1AAJ',
  'EQV',
  'LNLSDEPR',
  'NTLNLSR',
] as const;

export const FINANCIAL_COLUMNS = [
  'cert',
  'report_date',
  'total_assets',
  'total_deposits',
  'total_loans',
  'total_equity',
  'net_income',
  'roa',
  'roe',
  'efficiency_ratio',
  'npl_ratio',
  'tier1_leverage',
  'equity_ratio',
  'loan_to_deposit',
  'charge_off_rate',
  'source',
] as const;

/** SPEC §2: amounts in thousands of USD, ratios in percent, exactly as BankFind reports them. */
export function toFinancialRow(record: UpstreamRecord): Insertable<FinancialsTable> {
  const cert = integer(record, 'CERT');
  if (cert === null) throw new FieldError('missing CERT');
  return {
    cert,
    report_date: requiredDate(record, 'REPDTE'),
    total_assets: number(record, 'ASSET'),
    total_deposits: number(record, 'DEP'),
    total_loans: number(record, 'LNLSGR'),
    total_equity: first(record, ['EQ', 'EQTOT'], number),
    net_income: number(record, 'NETINC'),
    roa: number(record, 'ROA'),
    roe: number(record, 'ROE'),
    efficiency_ratio: number(record, 'EEFFR'),
    npl_ratio: number(record, 'NCLNLSR'),
    tier1_leverage: number(record, 'RBC1AAJ'),
    equity_ratio: number(record, 'EQV'),
    loan_to_deposit: number(record, 'LNLSDEPR'),
    charge_off_rate: number(record, 'NTLNLSR'),
    source: 'fdic',
  };
}

/** Quarter-end dates (YYYY-MM-DD) from the quarter containing `since` up to `until`. */
export function quarterEnds(since: string, until: string): string[] {
  const ends: string[] = [];
  let year = Number(since.slice(0, 4));
  let quarter = Math.ceil(Number(since.slice(5, 7)) / 3);
  for (;;) {
    const month = quarter * 3;
    const day = month === 3 || month === 12 ? 31 : 30;
    const iso = `${year}-${String(month).padStart(2, '0')}-${day}`;
    if (iso > until) return ends;
    if (iso >= since) ends.push(iso);
    quarter += 1;
    if (quarter === 5) {
      quarter = 1;
      year += 1;
    }
  }
}

async function* apiQuarters(ctx: IngestContext, dates: readonly string[]) {
  let done = 0;
  ctx.progress.start('report dates', dates.length);
  for (const reportDate of dates) {
    const filter = `REPDTE:${reportDate.replaceAll('-', '')}`;
    yield* bankFindApiPages(ctx, {
      endpoint: 'financials',
      fields: FINANCIAL_FIELDS,
      sortBy: 'CERT',
      filter,
    });
    ctx.progress.update(++done);
  }
}

export const fdicFinancials: IngestSource = {
  name: 'fdic-financials',
  group: 'banking',
  description: 'FDIC BankFind quarterly financials from FDIC_FINANCIALS_START (replaces the dates it loads)',
  async run(ctx) {
    const stager = await ctx.stage({
      table: 'financials',
      columns: FINANCIAL_COLUMNS,
      key: ['cert', 'report_date'],
      replace: { column: 'report_date' },
      replaceOnlyByKey: "{t}.source = 'ffiec'",
      alwaysRemove: "{t}.source = 'demo'",
    });
    const fromApi = ctx.options.from.length === 0;
    let pages: AsyncIterable<UpstreamRecord[]>;
    if (fromApi) {
      const since = ctx.options.since ?? ctx.config.fdicFinancialsStart;
      const until = ctx.options.until ?? new Date().toISOString().slice(0, 10);
      const dates = quarterEnds(since, until);
      ctx.setUpstream(
        bankFindUrl(ctx, { endpoint: 'financials', fields: [], sortBy: '' }, '', 0, 0).split('?')[0]!,
      );
      ctx.addNote(`report dates ${dates[0]} to ${dates.at(-1)}`);
      pages = apiQuarters(ctx, dates);
    } else {
      ctx.progress.start('financials');
      pages = inputPages(ctx);
    }
    const { since, until } = ctx.options;
    await stageRecords(ctx, pages, toFinancialRow, async (row) => {
      // --since/--until also bound rows read from files.
      if ((since && row.report_date < since) || (until && row.report_date > until)) {
        ctx.tally.skip('report date outside --since/--until');
        return false;
      }
      return stager.add(row);
    });
  },
};
