/**
 * Stages parsed 13F filings and information-table rows for the core's atomic swap, then recomputes
 * the derived holdings tables for the quarters the load touched, inside the swap transaction.
 *
 * Raw rows are stored exactly as filed (VALUE in the filing's own unit; the derivation normalises
 * to thousands of USD by FILING_DATE). A load replaces the filings it contains (by accession number)
 * and leaves every other filing alone, so an amendment arriving in a later data set joins the
 * original already loaded, and re-running a load is idempotent.
 */
import { sql } from 'kysely';
import { deriveHoldings } from '../../../holdings/derive/index.js';
import { padCik, quarterOfDate } from '../../../holdings/identifiers.js';
import type { Stager, StagingSpec } from '../../core/staging.js';
import { stagingTableName } from '../../core/staging.js';
import type { IngestContext } from '../../core/types.js';
import { edgarLocation } from './locations.js';
import { type InfoRowValues, InfoRowWriter } from './row-writer.js';
import type { Filing13F, InfoTableRow, Rejection } from './types.js';

const FILINGS_SPEC: StagingSpec<'filings_13f'> = {
  table: 'filings_13f',
  // biome-ignore format: column list
  columns: ['accession_number', 'cik', 'period_of_report', 'quarter', 'filing_date', 'form_type', 'amendment_type',
    'amendment_no', 'manager_name', 'city', 'state', 'country', 'report_type', 'table_value_total', 'table_entry_total'],
  key: ['accession_number'],
  // Served filings this load re-delivers are replaced; all others stay.
  replace: { column: 'accession_number' },
};

const ROWS_SPEC = (source: string): StagingSpec<'info_rows_13f'> => ({
  table: 'info_rows_13f',
  // biome-ignore format: column list
  columns: ['accession_number', 'cusip', 'issuer', 'title_of_class', 'value', 'shares', 'share_type', 'put_call',
    'investment_discretion', 'voting_sole', 'voting_shared', 'voting_none'],
  key: [],
  replace: 'all',
  // Every served row of a filing this load contains goes, even when the new copy has fewer rows.
  scopeWhere: `{t}.accession_number in (select accession_number from ${stagingTableName(source, 'filings_13f')})`,
});

/** Rejection reasons without the offending value, so the summary groups them. */
export function reasonKind(reason: string): string {
  return reason.replace(/"[^"]*"/g, '…').replace(/\d{4,}/g, '…');
}

const PLACEHOLDER_CUSIP = '000000000';

async function isDemo(ctx: IngestContext, source: string): Promise<boolean> {
  const row = await ctx.handle.db
    .selectFrom('sources')
    .select('is_demo')
    .where('source', '=', source)
    .executeTakeFirst();
  return Number(row?.is_demo ?? 0) === 1;
}

export class Loader13F {
  private filings!: Stager<'filings_13f'>;
  private writer!: InfoRowWriter;
  /** Accession → form type of every filing staged in this load. */
  private readonly staged = new Map<string, string>();
  readonly quarters = new Set<string>();
  rowCount = 0;

  private constructor(private readonly ctx: IngestContext) {}

  static async open(ctx: IngestContext, source: string): Promise<Loader13F> {
    const loader = new Loader13F(ctx);
    // Millions of rows are sorted and indexed in the swap: give SQLite's page cache and sorter room
    // (256 MiB, temporary B-trees in memory) instead of spilling to disk; measured 20-40 % faster.
    ctx.handle.sqlite?.pragma('cache_size = -262144');
    ctx.handle.sqlite?.pragma('temp_store = MEMORY');
    // The demo dataset is recorded as `sec-13f`; a single filing loaded over it replaces it too,
    // so real and synthetic filings never mix.
    const demo = source !== 'sec-13f' && (await isDemo(ctx, 'sec-13f'));
    const removeDemo = demo ? { alwaysRemove: '1 = 1' } : {};
    loader.filings = await ctx.stage({ ...FILINGS_SPEC, ...removeDemo });
    loader.writer = new InfoRowWriter(ctx.handle, await ctx.stage({ ...ROWS_SPEC(source), ...removeDemo }));
    ctx.onSwap(async (trx) => {
      if (demo)
        await trx.deleteFrom('sources').where('source', '=', 'sec-13f').where('is_demo', '=', 1).execute();
      await loader.derive(trx);
    });
    return loader;
  }

  /** Writes buffered rows; call after the last addRow. */
  finish(): void {
    this.writer.flush();
  }

  reject(rejection: Rejection): void {
    this.ctx.tally.reject(reasonKind(rejection.reason));
  }

  /** Stages a filing; false when it was already staged from an earlier data set of this load. */
  async addFiling(filing: Filing13F): Promise<boolean> {
    if (this.staged.has(filing.accession)) {
      this.ctx.tally.skip('filing already read from an earlier data set of this load');
      return false;
    }
    if (!filing.managerName) {
      this.ctx.tally.skip('filing without a cover page (bare information table): manager named by its CIK');
    }
    const { state, country } = edgarLocation(filing.stateOrCountry);
    const quarter = quarterOfDate(filing.period);
    await this.filings.add({
      accession_number: filing.accession,
      cik: padCik(filing.cik),
      period_of_report: filing.period,
      quarter,
      filing_date: filing.filingDate,
      form_type: filing.formType,
      amendment_type: filing.formType.endsWith('/A') ? filing.amendmentType : null,
      amendment_no: filing.amendmentNo,
      manager_name: filing.managerName ?? `CIK ${padCik(filing.cik)}`,
      city: filing.city,
      state,
      country,
      report_type: filing.reportType,
      table_value_total: filing.tableValueTotal,
      table_entry_total: filing.tableEntryTotal,
    });
    this.staged.set(filing.accession, filing.formType);
    this.quarters.add(quarter);
    return true;
  }

  /** Stages information-table rows of filings staged before; skipped and rejected rows are counted. */
  async addRows(rows: readonly InfoTableRow[]): Promise<void> {
    for (const row of rows) {
      const values = this.accept(row);
      if (values === null) continue;
      if (this.writer.synchronous) this.writer.addSync(values);
      else await this.writer.add(values);
      this.rowCount += 1;
    }
  }

  /** The row's column values, or null (counted) when it is skipped or rejected. */
  private accept(row: InfoTableRow): InfoRowValues | null {
    const formType = this.staged.get(row.accession);
    if (formType === undefined) {
      this.ctx.tally.reject('INFOTABLE row of a filing not in SUBMISSION (or rejected)');
      return null;
    }
    if (formType.startsWith('13F-NT')) {
      this.ctx.tally.skip('row of a 13F-NT notice (notices carry no holdings)');
      return null;
    }
    if (row.cusip === PLACEHOLDER_CUSIP && row.value === 0) {
      this.ctx.tally.skip('confidential-treatment placeholder row (CUSIP 000000000, value 0)');
      return null;
    }
    if (row.issuer === null || row.shares === null || row.shareType === null) {
      const missing =
        row.issuer === null ? 'NAMEOFISSUER' : row.shares === null ? 'SSHPRNAMT' : 'SSHPRNAMTTYPE';
      this.ctx.tally.reject(`empty ${missing}`);
      return null;
    }
    // biome-ignore format: one value per column of INFO_ROW_COLUMNS
    return [row.accession, row.cusip, row.issuer, row.titleOfClass, row.value, row.shares,
      row.shareType, row.putCall, row.discretion, row.votingSole, row.votingShared, row.votingNone];
  }

  /**
   * Inside the swap transaction: recompute the touched quarters, plus any quarter whose derived
   * rows no longer have a filing behind them (e.g. demo quarters just replaced by real data).
   */
  private async derive(trx: Parameters<Parameters<IngestContext['onSwap']>[0]>[0]): Promise<void> {
    const { rows } = await sql<{ quarter: string }>`
      select distinct quarter from manager_quarters
      where quarter not in (select distinct quarter from filings_13f)
    `.execute(trx);
    const quarters = [...this.quarters, ...rows.map((row) => row.quarter)];
    this.ctx.log(`deriving holdings for ${quarters.length} quarter(s): ${quarters.sort().join(', ')}`);
    await deriveHoldings(this.ctx.handle, quarters, trx);
  }
}
