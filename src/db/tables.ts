/**
 * Row types of every table, as Kysely sees them. Domain modules add their tables to Database here so
 * one Kysely<Database> type covers the whole schema. Money columns are thousands of USD unless the
 * column name says otherwise; ratio columns are percent.
 */
import type { Generated } from 'kysely';
import type { HoldingsTables } from '../holdings/tables.js';

export interface DatasetTable {
  id: number;
  version: number;
  updated_at: string;
}

/** Provenance: one row per ingest source (e.g. `fdic-institutions`, `demo-banking`). */
export interface SourcesTable {
  source: string;
  upstream: string;
  loaded_at: string;
  rows: number;
  duration_ms: number;
  checksum: string | null;
  is_demo: number;
  notes: string | null;
}

export interface InstitutionsTable {
  cert: number;
  name: string;
  /** searchKey(name): lower case, accents stripped; what `q` matches against. */
  search_name: string;
  city: string | null;
  state: string | null;
  zip: string | null;
  charter_class: string | null;
  /** Latest reported total assets, thousands of USD. */
  asset_size: number | null;
  established: string | null;
  /** The top holding company (FDIC `NAMEHCR`) and its RSSD (`RSSDHCR`); null without one. */
  holding_company: string | null;
  holding_company_rssd: number | null;
  active: number;
  inactive_date: string | null;
  rssd_id: number | null;
  website: string | null;
}

/**
 * One row per bank and report date. Besides the columns named here, there is one column per field of
 * the call-report catalogue (src/banking/fields/catalogue.ts), added by migrateToLatest.
 */
export interface FinancialsTable {
  [catalogueField: string]: number | string | null;
  cert: number;
  report_date: string;
  total_assets: number | null;
  total_deposits: number | null;
  total_loans: number | null;
  total_equity: number | null;
  net_income: number | null;
  roa: number | null;
  roe: number | null;
  efficiency_ratio: number | null;
  npl_ratio: number | null;
  tier1_leverage: number | null;
  equity_ratio: number | null;
  loan_to_deposit: number | null;
  charge_off_rate: number | null;
  /** The top holding company at this report date (BankFind `NAMEHCR`, `RSSDHCR`); null for FFIEC rows. */
  holding_company: string | null;
  holding_company_rssd: number | null;
  /** `fdic`, `ffiec` or `demo`: where the row's values came from. */
  source: string;
}

/**
 * Derived: the /api/v1/aggregates statistics of one catalogue field over one group of institutions at
 * one report date (src/ingest/derived/financial-aggregates.ts). Statistics use the non-null values.
 */
export interface FinancialAggregatesTable {
  /** `none`, `state`, `charter_class` or `size_band`. */
  group_by: string;
  field: string;
  report_date: string;
  /** The group; '' for group_by none, `unknown` when the grouping value is unknown. */
  grp: string;
  /** Records of that date and group (non-null or not). */
  institutions: number;
  /** Non-null values. */
  count: number;
  sum: number | null;
  mean: number | null;
  median: number | null;
  p25: number | null;
  p75: number | null;
}

export interface FailuresTable {
  id: Generated<number>;
  cert: number | null;
  name: string;
  city: string | null;
  state: string | null;
  closing_date: string;
  acquiring_institution: string | null;
  resolution_type: string | null;
  insurance_fund: string | null;
  total_assets: number | null;
  total_deposits: number | null;
  estimated_loss: number | null;
}

export interface MacroSeriesTable {
  id: string;
  title: string;
  units: string | null;
  frequency: string;
  seasonal_adjustment: string | null;
  last_updated: string | null;
}

export interface MacroObservationsTable {
  series_id: string;
  date: string;
  value: number;
}

/** SEC `company_tickers_exchange.json`: one row per registrant and ticker. */
export interface SecRegistrantsTable {
  /** 10 digits, zero-padded. */
  cik: string;
  ticker: string;
  name: string;
  exchange: string | null;
  /** Position among the registrant's tickers as SEC lists them (0 = its first). */
  ordinal: number;
}

/** One edge of the identity graph (SPEC §7); `entity_link_candidates` has the same shape. */
export interface EntityLinksTable {
  from_id: string;
  from_kind: string;
  from_name: string | null;
  relation: string;
  to_id: string;
  to_kind: string;
  to_name: string | null;
  source: string;
  /** `identifier`, `name_match` or `manual`. */
  method: string;
  /** 1 for identifier equality and manual links, the name similarity for name matches. */
  confidence: number;
  /** Report dates (YYYY-MM-DD) between which the link held; null when open-ended or undated. */
  valid_from: string | null;
  valid_to: string | null;
}

/** ALFRED: the value of an observation during one real-time period (`regdata ingest fred --vintages`). */
export interface MacroVintagesTable {
  series_id: string;
  date: string;
  realtime_start: string;
  /** `9999-12-31` while the value is still the published one. */
  realtime_end: string;
  /** Null: the observation was absent from the vintages of that period. */
  value: number | null;
}

/** One committed load (or demo part): the changes feed (GET /api/changes). */
export interface LoadsTable {
  /** The dataset version the load committed. */
  version: number;
  source: string;
  loaded_at: string;
  upstream: string;
  is_demo: number;
  /** JSON array of LoadScope (src/ingest/core/load-history.ts). */
  scope: string;
  inserted: number;
  updated: number;
  removed: number;
}

/** A stored call-report value a later load changed (GET /api/v1/financials/revisions). */
export interface FinancialRevisionsTable {
  cert: number;
  report_date: string;
  /** Catalogue field name. */
  field: string;
  old: number | null;
  new: number | null;
  /** The load that changed it (`fdic-financials`, `ffiec-call`). */
  source: string;
  loaded_at: string;
  /** The dataset version that load committed. */
  dataset_version: number;
}

/** Holdings tables are declared in src/holdings/tables.ts. */
export interface Database extends HoldingsTables {
  dataset: DatasetTable;
  sources: SourcesTable;
  institutions: InstitutionsTable;
  financials: FinancialsTable;
  financial_aggregates: FinancialAggregatesTable;
  failures: FailuresTable;
  macro_series: MacroSeriesTable;
  macro_observations: MacroObservationsTable;
  sec_registrants: SecRegistrantsTable;
  entity_links: EntityLinksTable;
  entity_link_candidates: EntityLinksTable;
  macro_vintages: MacroVintagesTable;
  loads: LoadsTable;
  financial_revisions: FinancialRevisionsTable;
}

export type TableName = keyof Database & string;
