/**
 * Row types of the holdings tables (migrations 0003_holdings, 0004_info_tables). Raw tables
 * (`filings_13f`, `info_tables_13f`) hold what was filed, in the filing's own unit; every other table is either
 * reference data (managers, securities, advisers) or derived by `deriveHoldings()`.
 */

/** One 13F submission (SUBMISSION + COVERPAGE + SUMMARYPAGE of the SEC data sets). */
export interface Filings13fTable {
  /** Dashed accession number, e.g. `0000950123-24-001234`. */
  accession_number: string;
  /** Filer CIK as a 10-digit zero-padded string. */
  cik: string;
  /** PERIODOFREPORT, YYYY-MM-DD (a quarter end). */
  period_of_report: string;
  /** `YYYY-QN` of period_of_report. */
  quarter: string;
  /** FILING_DATE, YYYY-MM-DD. Decides the value unit (before 2023-01-03: thousands; from then: USD). */
  filing_date: string;
  /** `13F-HR`, `13F-HR/A`, `13F-NT` or `13F-NT/A`. */
  form_type: string;
  /** `RESTATEMENT` or `NEW HOLDINGS` for amendments; null otherwise. */
  amendment_type: string | null;
  amendment_no: number | null;
  manager_name: string;
  city: string | null;
  /** USPS code for US managers; null for others. */
  state: string | null;
  /** ISO 3166 alpha-2 country (`US` for US managers); null when unknown. */
  country: string | null;
  /** `13F HOLDINGS REPORT`, `13F NOTICE` or `13F COMBINATION REPORT`. */
  report_type: string | null;
  /** TABLEVALUETOTAL as filed (same unit as the rows); null when not known. */
  table_value_total: number | null;
  table_entry_total: number | null;
  /** Cover page CRDNUMBER (2023+ filings): the filer's Form ADV identity; null when not filed. */
  crd_number: number | null;
  /** Cover page SECFILENUMBER (`801-…`); null when not filed. */
  sec_file_number: string | null;
}

/** A filing's information-table rows (or one contiguous run of them), packed: see info-tables.ts. */
export interface InfoTables13fTable {
  accession_number: string;
  /** 0 for the first run of the filing's rows in a load, 1, 2, … for later runs. */
  part: number;
  row_count: number;
  /** The rows in INFO_ROW_FIELDS order, values as filed, encoded (info-row-codec.ts). */
  rows: Uint8Array;
}

/** One INFOTABLE row, as filed (stored packed per filing in `info_tables_13f`: info-tables.ts). */
export interface InfoRow13f {
  accession_number: string;
  /** Upper-case 9-character CUSIP. */
  cusip: string;
  issuer: string;
  title_of_class: string | null;
  /** VALUE as filed: thousands of USD before 2023-01-03 (filing date), whole USD from then on. */
  value: number;
  /** SSHPRNAMT: shares, or principal amount for PRN rows. */
  shares: number;
  /** `SH` or `PRN`. */
  share_type: string;
  /** `Put`, `Call` (any case) or null. */
  put_call: string | null;
  investment_discretion: string | null;
  voting_sole: number | null;
  voting_shared: number | null;
  voting_none: number | null;
}

/** Latest cover-page identity of each filer (refreshed by the derivation). */
export interface ManagersTable {
  cik: string;
  name: string;
  search_name: string;
  city: string | null;
  state: string | null;
  country: string | null;
}

/** The security master (Official 13(f) list, tickers); the derivation adds any CUSIP it lacks. */
export interface SecuritiesTable {
  cusip: string;
  issuer: string;
  title_of_class: string | null;
  ticker: string | null;
}

/** Form ADV registered investment advisers. Money in USD. */
export interface AdvisersTable {
  crd: number;
  sec_number: string | null;
  cik: string | null;
  name: string;
  search_name: string;
  legal_name: string | null;
  search_legal_name: string | null;
  address: string | null;
  city: string | null;
  state: string | null;
  country: string | null;
  phone: string | null;
  website: string | null;
  /** Regulatory AUM, USD (Form ADV 5.F(2)(c)). */
  aum: number | null;
  /** Discretionary AUM, USD (5.F(2)(a)). */
  discretionary_aum: number | null;
  employees: number | null;
  clients: number | null;
  clients_individuals: number | null;
  clients_high_net_worth: number | null;
  clients_investment_companies: number | null;
  clients_pooled_vehicles: number | null;
  clients_pension_plans: number | null;
  clients_other: number | null;
  private_funds: number | null;
  hedge_funds: number | null;
  private_equity_funds: number | null;
  registration_status: string | null;
  latest_filing_date: string | null;
}

/** Derived: which filings make up each manager's quarter (the resolution, kept for audit). */
export interface AppliedFilings13fTable {
  quarter: string;
  cik: string;
  accession_number: string;
  /** `base` (the 13F-HR or the RESTATEMENT that replaced it) or `addition` (NEW HOLDINGS). */
  role: string;
}

/**
 * One position of a manager's resolved quarter. No longer written (migration 0016: replaced by
 * `security_positions` and `manager_portfolios`); kept for the previous release's processes.
 */
export interface PositionsTable {
  quarter: string;
  cik: string;
  cusip: string;
  share_type: string;
  /** `PUT`, `CALL` or null. */
  put_call: string | null;
  /** Thousands of USD (decimals kept for dollar filings). */
  value: number;
  shares: number;
  /** 1 for SH without put/call. */
  is_equity: number;
}

/** Derived: a manager quarter's positions packed in the portfolio's order (portfolio-pack.ts). */
export interface ManagerPortfoliosTable {
  cik: string;
  quarter: string;
  positions: Uint8Array;
}

/**
 * Derived: a security quarter's positions, of every manager and every type, packed in the holders
 * list's order (SECURITY_POSITIONS in portfolio-pack.ts).
 */
export interface SecurityPositionsTable {
  quarter: string;
  cusip: string;
  positions: Uint8Array;
}

/** Derived: a manager's resolved quarter (timeline + manager lists). */
export interface ManagerQuartersTable {
  cik: string;
  quarter: string;
  name: string;
  search_name: string;
  city: string | null;
  state: string | null;
  country: string | null;
  /** The 13F-HR (or RESTATEMENT) the quarter is based on. */
  accession_number: string;
  /** Form type of the latest filing applied (`13F-HR` or `13F-HR/A`). */
  form_type: string;
  /** Filing date of the latest filing applied. */
  filed_at: string;
  total_value: number;
  position_count: number;
  equity_value: number;
  options_count: number;
}

/** Derived: per-quarter totals of one security. */
export interface SecurityQuartersTable {
  quarter: string;
  cusip: string;
  issuer: string;
  search_issuer: string;
  title_of_class: string | null;
  /** Distinct managers with any position in the CUSIP. */
  holder_count: number;
  total_value: number;
  /** Shares of SH positions without put/call. */
  total_shares: number;
  equity_manager_count: number;
  equity_value: number;
  equity_shares: number;
}

export interface HoldingsQuartersTable {
  quarter: string;
  manager_count: number;
  position_count: number;
  total_value: number;
}

/** Derived: the smart-money groups of the two latest quarters, ranked. */
export interface SmartMoneyTable {
  /** `new_entries`, `biggest_inflows` or `top_exits`. */
  grp: string;
  rank: number;
  quarter: string;
  previous_quarter: string;
  cusip: string;
  issuer: string;
  manager_count: number;
  value: number | null;
  value_change: number | null;
  shares_change: number | null;
}

export interface SmartMoneySummaryTable {
  id: number;
  quarter: string;
  previous_quarter: string;
  managers_compared: number;
}

/** A position's status against the manager's previous filed quarter (SPEC §6). */
export const CHANGE_STATUSES = ['new', 'added', 'reduced', 'unchanged', 'sold_out'] as const;
export type ChangeStatus = (typeof CHANGE_STATUSES)[number];
/** Split-adjusted share counts less than this far apart are `unchanged` (a reverse split pays cash for fractions). */
export const UNCHANGED_WITHIN_SHARES = 1;

/**
 * One equity position (SH, no put/call, summed per CUSIP) of a manager's quarter compared with its
 * previous filed quarter; `sold_out` for what it held then and no longer holds. Stored packed
 * (change-pack.ts) in `changes_by_manager` and `holders_by_security`.
 */
export interface PositionChange {
  cusip: string;
  status: ChangeStatus;
  /** Shares before, multiplied by the split factor (so comparable with shares_after); 0 when new. */
  shares_before: number;
  /** 0 when sold out. */
  shares_after: number;
  /** Thousands of USD; 0 when new. */
  value_before: number;
  /** Thousands of USD; 0 when sold out. */
  value_after: number;
  /** Percent of the manager's total portfolio value in the previous quarter (0 when new). */
  weight_before: number;
  weight_after: number;
  /** The split (or product of splits) between the two quarters; null when none. */
  split_factor: number | null;
}

/** Derived: a manager quarter's change counts and equity values (its changes: changes_by_manager). */
export interface ManagerChangesTable {
  cik: string;
  quarter: string;
  previous_quarter: string | null;
  new_count: number;
  added_count: number;
  reduced_count: number;
  unchanged_count: number;
  sold_out_count: number;
  value_before: number;
  value_after: number;
}

/** Derived: a manager quarter's changes, packed (MANAGER_CHANGES in change-pack.ts) in page order. */
export interface ChangesByManagerTable {
  cik: string;
  quarter: string;
  changes: Uint8Array;
}

/** Derived: per quarter and CUSIP, how many managers opened, added, reduced, kept, sold out. */
export interface SecurityChangesTable {
  quarter: string;
  cusip: string;
  new_count: number;
  added_count: number;
  reduced_count: number;
  unchanged_count: number;
  sold_out_count: number;
}

/**
 * Derived: a security quarter's holders and sold-out managers, packed (SECURITY_HOLDERS in
 * change-pack.ts) in the holders page's order. Apart from security_changes so that reading a
 * quarter's counts never reads them.
 */
export interface HoldersBySecurityTable {
  quarter: string;
  cusip: string;
  holders: Uint8Array;
}

/** Derived: a split detected between two consecutive loaded quarters (docs/holdings-changes.md). */
export interface SecuritySplitsTable {
  quarter: string;
  previous_quarter: string;
  cusip: string;
  /** Shares now per share before: 2 for a 2-for-1 split, 0.1 for a 1-for-10 reverse split. */
  factor: number;
  /** Holders with the CUSIP in both quarters that the detection compared. */
  holders_compared: number;
  /** The median shares-now / shares-before ratio it snapped to `factor`. */
  median_ratio: number;
}

/** Derived: the product of the splits in (from_quarter, to_quarter], for every pair with one. */
export interface SplitSpansTable {
  from_quarter: string;
  to_quarter: string;
  cusip: string;
  factor: number;
}

/** Derived: each security's latest quarter with an equity holder, and its figures then (the search). */
export interface SecurityLatestTable {
  cusip: string;
  issuer: string;
  search_issuer: string;
  title_of_class: string | null;
  latest_quarter: string;
  /** Managers with an equity position (SH, no put/call) in latest_quarter. */
  holder_count: number;
  /** Their value, thousands of USD. */
  total_value: number;
}

/** Derived: a quarter's filing season (13F-HR base filings; the deadline is 45 days after quarter end). */
export interface FilingProgressTable {
  quarter: string;
  deadline: string;
  previous_quarter: string | null;
  /** Managers with a 13F-HR for previous_quarter. */
  previous_filers: number;
  /** Managers with a 13F-HR for quarter. */
  managers: number;
  /** Previous filers that filed for quarter too. */
  continuing: number;
  total_value: number;
  /** Managers whose first 13F-HR for the quarter was filed after the deadline. */
  late: number;
}

/** Derived: managers whose first 13F-HR for the quarter was filed on that day. */
export interface FilingDaysTable {
  quarter: string;
  filed_on: string;
  managers: number;
}

/** Derived: /api/crowded as of each filing day of a quarter (derive/crowding.ts), top 100 per day. */
export interface CrowdedDaysTable {
  quarter: string;
  /** A day on which a filing of the quarter was made; the rows count what was filed by its end. */
  day: string;
  rank: number;
  cusip: string;
  manager_count: number;
  /** Thousands of USD. */
  total_value: number;
  total_shares: number;
}

export interface HoldingsTables {
  filings_13f: Filings13fTable;
  info_tables_13f: InfoTables13fTable;
  managers: ManagersTable;
  securities: SecuritiesTable;
  advisers: AdvisersTable;
  applied_filings_13f: AppliedFilings13fTable;
  positions: PositionsTable;
  manager_quarters: ManagerQuartersTable;
  security_quarters: SecurityQuartersTable;
  holdings_quarters: HoldingsQuartersTable;
  smart_money: SmartMoneyTable;
  smart_money_summary: SmartMoneySummaryTable;
  manager_changes: ManagerChangesTable;
  changes_by_manager: ChangesByManagerTable;
  holders_by_security: HoldersBySecurityTable;
  security_changes: SecurityChangesTable;
  security_splits: SecuritySplitsTable;
  split_spans: SplitSpansTable;
  security_latest: SecurityLatestTable;
  filing_progress: FilingProgressTable;
  filing_days: FilingDaysTable;
  crowded_days: CrowdedDaysTable;
  manager_portfolios: ManagerPortfoliosTable;
  security_positions: SecurityPositionsTable;
}
