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
  holding_company: string | null;
  active: number;
  inactive_date: string | null;
  rssd_id: number | null;
  website: string | null;
}

export interface FinancialsTable {
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
  /** `fdic`, `ffiec` or `demo`: where the row's values came from. */
  source: string;
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

/** Holdings tables are declared in src/holdings/tables.ts. */
export interface Database extends HoldingsTables {
  dataset: DatasetTable;
  sources: SourcesTable;
  institutions: InstitutionsTable;
  financials: FinancialsTable;
  failures: FailuresTable;
  macro_series: MacroSeriesTable;
  macro_observations: MacroObservationsTable;
}
