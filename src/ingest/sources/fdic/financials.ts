/**
 * `fdic-financials`: quarterly call-report figures from BankFind, one request slice per report date
 * (REPDTE) so no slice exceeds the API's result window. A load replaces the report dates it
 * contains; FFIEC-derived rows of those dates are replaced only where FDIC has the same bank.
 */

import { FINANCIAL_FIELDS as CATALOGUE, FIELD_NAMES } from '../../../banking/fields/catalogue.js';
import type { FinancialRow } from '../../../banking/fields/row.js';
import { FieldError } from '../../core/errors.js';
import type { IngestContext, IngestSource } from '../../core/types.js';
import { deriveFinancialAggregates } from '../../derived/financial-aggregates.js';
import { recordFinancialRevisions } from '../../derived/financial-revisions.js';
import { rebuildEntityLinksOnSwap } from '../../derived/identity/entity-links.js';
import { first, integer, number, requiredDate, text, type UpstreamRecord } from '../values.js';
import { bankFindApiPages, bankFindUrl, inputPages, stageRecords } from './bankfind.js';

/** The BankFind fields a financials request asks for: the key and every catalogue field's code(s). */
export const FINANCIAL_FIELDS: readonly string[] = [
  ...new Set([
    'CERT',
    'REPDTE',
    'NAMEHCR',
    'RSSDHCR',
    ...CATALOGUE.flatMap((f) => [f.fdic_field, ...(f.fdic_alternates ?? [])]),
  ]),
];

// biome-ignore format: one line reads best
export const FINANCIAL_COLUMNS = ['cert', 'report_date', ...FIELD_NAMES, 'holding_company', 'holding_company_rssd', 'source'] as const;

/** BankFind's `RSSDHCR` is 0 for a bank without a holding company. */
export function holdingCompanyOf(record: UpstreamRecord): { name: string | null; rssd: number | null } {
  const rssd = integer(record, 'RSSDHCR');
  const name = text(record, 'NAMEHCR');
  return { name, rssd: rssd !== null && rssd > 0 ? rssd : null };
}

/** SPEC §5: amounts in thousands of USD, ratios in percent, exactly as BankFind reports them. */
export function toFinancialRow(record: UpstreamRecord): FinancialRow {
  const cert = integer(record, 'CERT');
  if (cert === null) throw new FieldError('missing CERT');
  const parent = holdingCompanyOf(record);
  const row: FinancialRow = {
    cert,
    report_date: requiredDate(record, 'REPDTE'),
    holding_company: parent.name,
    holding_company_rssd: parent.rssd,
    source: 'fdic',
  };
  for (const field of CATALOGUE) {
    row[field.name] = field.fdic_alternates
      ? first(record, [field.fdic_field, ...field.fdic_alternates], number)
      : number(record, field.fdic_field);
  }
  return row;
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
      // FFIEC's rows give way only to FDIC's row for the same bank and date.
      replace: { matching: 'report_date', keepUnlessRestaged: { source: 'ffiec' } },
      // A stored value this load changes is kept as a revision (GET /api/v1/financials/revisions).
      prepare: async (trx, staging) => {
        await recordFinancialRevisions(trx, staging, 'fdic-financials', ['fdic', 'ffiec']);
      },
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
    const dates = new Set<string>();
    ctx.onSwap((trx) => deriveFinancialAggregates(ctx.handle, trx, dates));
    // The parent per report date gives the graph's dated bank → holding company links.
    rebuildEntityLinksOnSwap(ctx);
    await stageRecords(ctx, pages, toFinancialRow, async (row) => {
      // --since/--until also bound rows read from files.
      if ((since && row.report_date < since) || (until && row.report_date > until)) {
        ctx.tally.skip('report date outside --since/--until');
        return false;
      }
      dates.add(row.report_date);
      return stager.add(row);
    });
  },
};
