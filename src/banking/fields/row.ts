/** A financials row as the ingest and the demo write it: the key, the source, every catalogue value. */
export interface FinancialRow {
  cert: number;
  report_date: string;
  /** `fdic`, `ffiec` or `demo`: where the row's values came from. */
  source: string;
  [catalogueField: string]: number | string | null;
}
