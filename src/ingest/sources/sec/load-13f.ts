/**
 * Stages parsed 13F filings and information-table rows for the core's atomic swap, then recomputes
 * the derived holdings tables for the quarters the load touched, inside the swap transaction.
 *
 * Raw rows are stored exactly as filed (VALUE in the filing's own unit; the derivation normalises
 * to thousands of USD by FILING_DATE), packed per filing (src/ingest/sources/sec/holdings/info-tables.ts): a data set's
 * millions of rows are staged and swapped as a few thousand records. A load replaces the filings it contains (by accession number)
 * and leaves every other filing alone, so an amendment arriving in a later data set joins the
 * original already loaded, and re-running a load is idempotent.
 */
import { sql } from 'kysely';
import { padCik, quarterOfDate } from '../../../holdings/identifiers.js';
import type { Stager, StagingSpec } from '../../core/staging.js';
import type { IngestContext } from '../../core/types.js';
import { rebuildEntityLinksOnSwap } from '../../derived/identity/entity-links.js';
import { deriveHoldings } from './holdings/derive/index.js';
import { rowTextBytes } from './holdings/info-row-codec.js';
import { InfoTablePacker } from './holdings/info-tables.js';
import { LoadSums } from './holdings/load-sums.js';
import { ParsedRecords } from './holdings/parsed-records.js';
import { acceptInfoRow } from './info-row-accept.js';
import type { LoadFilings, ParsedBatch } from './infotable-parse.js';
import { edgarLocation } from './locations.js';
import type { Filing13F, InfoTableRow, Rejection } from './types.js';

const FILINGS_SPEC: StagingSpec<'filings_13f'> = {
  table: 'filings_13f',
  // biome-ignore format: column list
  columns: ['accession_number', 'cik', 'period_of_report', 'quarter', 'filing_date', 'form_type', 'amendment_type',
    'amendment_no', 'manager_name', 'city', 'state', 'country', 'report_type', 'table_value_total', 'table_entry_total',
    'crd_number', 'sec_file_number'],
  key: ['accession_number'],
  // Served filings this load re-delivers are replaced; all others stay.
  replace: { matching: 'accession_number' },
};

const ROWS_SPEC: StagingSpec<'info_tables_13f'> = {
  table: 'info_tables_13f',
  columns: ['accession_number', 'part', 'row_count', 'rows'],
  key: ['accession_number', 'part'],
  // A record is a whole filing (~25 KB on average, info-row-codec.ts): buffer ~2.5 MB, not 200.
  flushEvery: 100,
  rowsPerRecord: 'row_count',
  // Every served row of a filing this load contains goes, even when the new copy has fewer rows.
  replace: { matching: 'accession_number', stagedIn: 'filings_13f' },
};

/** Rejection reasons without the offending value, so the summary groups them. */
export function reasonKind(reason: string): string {
  return reason.replace(/"[^"]*"/g, '…').replace(/\d{4,}/g, '…');
}

/** CRDNUMBER is filed zero-padded (`000317572`); a CRD is a positive integer, anything else is null. */
function crdNumber(text: string | null): number | null {
  const digits = text?.trim() ?? '';
  return /^\d{1,12}$/.test(digits) && Number(digits) > 0 ? Number(digits) : null;
}

export class Loader13F {
  private filings!: Stager<'filings_13f'>;
  private tables!: Stager<'info_tables_13f'>;
  private readonly packer = new InfoTablePacker();
  /** Accession → form type of every filing staged in this load. */
  private readonly staged = new Map<string, string>();
  private readonly filingDates = new Map<string, { filingDate: string; quarter: string }>();
  /** The stored records of the parsed batches. */
  private readonly records = new ParsedRecords();
  /** Positions and names of the filings parsed from data sets, summed as they were read. */
  private sums!: LoadSums;
  readonly quarters = new Set<string>();
  rowCount = 0;

  private constructor(private readonly ctx: IngestContext) {}

  static async open(ctx: IngestContext): Promise<Loader13F> {
    const loader = new Loader13F(ctx);
    // Hundreds of MB of packed rows are written in the swap: a 64 MiB page cache holds the pages
    // being appended; more only raised peak memory. Temporary storage stays on file: the staging
    // tables live there.
    ctx.handle.sqlite?.pragma('cache_size = -65536');
    loader.filings = await ctx.stage(FILINGS_SPEC);
    loader.tables = await ctx.stage(ROWS_SPEC);
    loader.sums = new LoadSums();
    ctx.onSwap((trx) => loader.derive(trx));
    rebuildEntityLinksOnSwap(ctx);
    return loader;
  }

  /** Stages the last filing's rows; call after the last addRows. */
  async finish(): Promise<void> {
    const last = this.packer.close();
    if (last) await this.tables.add(last);
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
      crd_number: crdNumber(filing.crdNumber),
      sec_file_number: filing.secFileNumber?.toUpperCase() ?? null,
    });
    this.staged.set(filing.accession, filing.formType);
    this.filingDates.set(filing.accession, { filingDate: filing.filingDate, quarter });
    this.quarters.add(quarter);
    return true;
  }

  /** The filings staged so far, which a data set's INFOTABLE rows may belong to. */
  get loadFilings(): LoadFilings {
    return this.staged;
  }

  /** Stages information-table rows of filings staged before; skipped and rejected rows are counted. */
  async addRows(rows: readonly InfoTableRow[]): Promise<void> {
    for (const row of rows) {
      const verdict = acceptInfoRow(row, this.staged.get(row.accession));
      if (!Array.isArray(verdict)) {
        if ('skip' in verdict) this.ctx.tally.skip(verdict.skip);
        else this.ctx.tally.reject(verdict.reject);
        continue;
      }
      // Rows arriving this way are derived from their raw rows.
      this.sums.forget(row.accession);
      const closed = this.packer.add(row.accession, verdict);
      if (closed) await this.tables.add(closed);
      this.rowCount += 1;
    }
  }

  /**
   * Stages a batch parsed from a data set's INFOTABLE (infotable-parse.ts) and sums its filings
   * (a filing's last record may continue in the next batch: call endOfRows after the last batch).
   */
  async addParsed(batch: ParsedBatch): Promise<void> {
    for (const [reason, count] of batch.skipped) this.ctx.tally.skip(reason, count);
    for (const [reason, count] of batch.rejected) this.ctx.tally.reject(reason, count);
    const { fields } = batch;
    let at = 0;
    let textAt = 0;
    for (const [j, cut] of batch.records.entries()) {
      const { filingDate, quarter } = this.filingDates.get(cut.accession) as {
        filingDate: string;
        quarter: string;
      };
      const run = this.sums.startFiling(cut.accession, filingDate, quarter);
      const firstTexts = textAt;
      for (let k = 0; k < cut.rows; k++) {
        run.addParsed(fields, at + k, textAt);
        textAt += rowTextBytes(fields, at + k);
      }
      const closed = this.records.add(batch, j, at, firstTexts);
      at += cut.rows;
      this.rowCount += cut.rows;
      if (closed) await this.tables.add(closed);
    }
    this.sums.flushIfFull();
  }

  /** Call after a data set's last parsed batch. */
  endOfRows(): void {
    this.records.end();
    this.sums.endOfRows();
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
    const counts = await deriveHoldings(this.ctx.handle, quarters, trx, this.sums.loaded);
    this.ctx.log(
      `derived ${counts.managerQuarters} manager quarter(s), ${counts.summed} of them from the positions summed while reading`,
    );
  }
}
