/**
 * `ffiec-call`: financial records computed from the FFIEC CDR single-period bulk ZIP (`--from` a
 * file or URL, or FFIEC_BULK_URL). FDIC values win: rows for a (cert, report date) FDIC already
 * serves are kept as they are; FFIEC fills the banks and quarters FDIC does not serve yet.
 */
import { FieldError, IngestError } from '../../core/errors.js';
import type { IngestContext, IngestSource } from '../../core/types.js';
import { deriveFinancialAggregates } from '../../derived/financial-aggregates.js';
import { recordFinancialRevisions } from '../../derived/financial-revisions.js';
import { FINANCIAL_COLUMNS } from '../fdic/financials.js';
import { readCallReport } from './bulk.js';
import { downloadCallBulk } from './cdr-download.js';
import { callReportRow } from './formulas.js';

const CDR_PAGE = /\.aspx(?:[?#]|$)/i;

/** The ZIPs to read: `--from` inputs, or FFIEC_BULK_URL (a ZIP URL, or the CDR download page). */
async function bulkZips(ctx: IngestContext): Promise<Buffer[]> {
  if (ctx.options.from.length > 0) {
    const zips: Buffer[] = [];
    for (const location of ctx.options.from) zips.push(await ctx.readInput(location));
    return zips;
  }
  const url = ctx.config.ffiecBulkUrl;
  if (!url) {
    throw new IngestError(
      'ffiec-call needs the bulk ZIP: set FFIEC_BULK_URL (the CDR download page or a ZIP URL), or download "Call Reports -- Single Period" (tab delimited) from https://cdr.ffiec.gov/public/PWS/DownloadBulkData.aspx and pass --from <zip>',
    );
  }
  if (!CDR_PAGE.test(url)) return [await ctx.readInput(url)];
  const { bytes, period } = await downloadCallBulk(ctx, url, ctx.options.until);
  ctx.setUpstream(`${url} (Call Reports -- Single Period ${period}, tab delimited)`);
  return [bytes];
}

export const ffiecCall: IngestSource = {
  name: 'ffiec-call',
  group: 'banking',
  description: 'FFIEC CDR call-report bulk ZIP (one quarter): fills financials FDIC does not serve yet',
  enabledInGroup: (config) =>
    config.ffiecBulkUrl ? true : 'FFIEC_BULK_URL is empty; run `regdata ingest ffiec-call --from <zip>`',
  async run(ctx) {
    const stager = await ctx.stage({
      table: 'financials',
      columns: FINANCIAL_COLUMNS,
      key: ['cert', 'report_date'],
      replace: { matching: 'report_date', where: { source: 'ffiec' } },
      prepare: async (trx, staging) => {
        await recordFinancialRevisions(trx, staging, 'ffiec-call', ['ffiec']);
      },
      insertOnlyNew: true,
    });
    const dates = new Set<string>();
    ctx.onSwap((trx) => deriveFinancialAggregates(ctx.handle, trx, dates));
    for (const zip of await bulkZips(ctx)) {
      const report = await readCallReport(zip);
      ctx.addNote(`report date ${report.reportDate}`);
      dates.add(report.reportDate);
      ctx.progress.start(`call reports ${report.reportDate}`, report.items.size);
      for (const [idrssd, items] of report.items) {
        ctx.tally.read++;
        const cert = report.certs.get(idrssd);
        if (cert === undefined) ctx.tally.reject('IDRSSD not in the POR file');
        else if (cert === null) ctx.tally.reject('no FDIC certificate number in the POR file');
        else {
          try {
            await stager.add(callReportRow(cert, report.reportDate, items));
          } catch (error) {
            if (!(error instanceof FieldError)) throw error;
            ctx.tally.reject(error.message);
          }
        }
        ctx.progress.update(ctx.tally.read);
      }
    }
  },
};
