/**
 * `ffiec-call`: financial records computed from the FFIEC CDR single-period bulk ZIP (`--from` a
 * file or URL, or FFIEC_BULK_URL). FDIC values win: rows for a (cert, report date) FDIC already
 * serves are kept as they are; FFIEC fills the banks and quarters FDIC does not serve yet.
 */
import type { IngestSource } from '../../core/types.js';
import { IngestError } from '../../core/types.js';
import { FINANCIAL_COLUMNS } from '../fdic/financials.js';
import { FieldError } from '../values.js';
import { readCallReport } from './bulk.js';
import { callReportRow } from './formulas.js';

export const ffiecCall: IngestSource = {
  name: 'ffiec-call',
  group: 'banking',
  description: 'FFIEC CDR call-report bulk ZIP (one quarter): fills financials FDIC does not serve yet',
  enabledInGroup: (config) =>
    config.ffiecBulkUrl ? true : 'set FFIEC_BULK_URL, or run `regdata ingest ffiec-call --from <zip>`',
  async run(ctx) {
    const locations =
      ctx.options.from.length > 0
        ? ctx.options.from
        : ctx.config.ffiecBulkUrl
          ? [ctx.config.ffiecBulkUrl]
          : [];
    if (locations.length === 0) {
      throw new IngestError(
        'ffiec-call needs the bulk ZIP: download "Call Reports -- Single Period" (tab delimited) from https://cdr.ffiec.gov/public/PWS/DownloadBulkData.aspx and pass --from <zip>, or set FFIEC_BULK_URL',
      );
    }
    const stager = await ctx.stage({
      table: 'financials',
      columns: FINANCIAL_COLUMNS,
      key: ['cert', 'report_date'],
      replace: { column: 'report_date' },
      scopeWhere: "{t}.source = 'ffiec'",
      alwaysRemove: "{t}.source = 'demo'",
      insertOnlyNew: true,
    });
    for (const location of locations) {
      const report = await readCallReport(await ctx.readInput(location));
      ctx.addNote(`report date ${report.reportDate}`);
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
