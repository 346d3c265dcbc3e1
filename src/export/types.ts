/**
 * What an export is made of: tables, each a list of typed columns with their unit and one ordered
 * query giving those columns in that order, read as a stream (src/export/read.ts).
 */
import type { Compilable, Kysely } from 'kysely';
import type { Database } from '../db/tables.js';

/** The file an export writes last (its table of contents); `/bulk/` serves it. */
export const MANIFEST = 'manifest.json';

/** Column types of the export, as the Parquet files declare them (DuckDB's names). */
export type ColumnType = 'INTEGER' | 'BIGINT' | 'DOUBLE' | 'VARCHAR' | 'DATE' | 'BOOLEAN';

export interface ExportColumn {
  readonly name: string;
  readonly type: ColumnType;
  /** `thousands of USD`, `USD`, `percent`, `count`, `shares`…; null when the value is not a quantity. */
  readonly unit: string | null;
  readonly description?: string;
}

/** One row: the values of the table's columns, in their order. */
export type ExportRow = unknown[];

export interface ExportTable {
  /** File name stem (`financials` → `financials.parquet`). */
  readonly name: string;
  /** The database table(s) it reads, for the manifest. */
  readonly table: string;
  readonly description: string;
  readonly columns: readonly ExportColumn[];
  /** The rows in a stable order: selects `columns` in order (the computed ones as placeholders). */
  query(db: Kysely<Database>): Compilable;
  /** Fills the computed columns (identity-graph lookups loaded once per export), when there are any. */
  complete?(db: Kysely<Database>): Promise<(row: ExportRow) => ExportRow>;
  /**
   * For a table stored packed: `query` selects the packed values, each unpacked into the table's
   * rows in order, `readAtOnce` of them per read (a packed value holds up to thousands of rows).
   */
  readonly unpack?: {
    readonly readAtOnce: number;
    rows(db: Kysely<Database>): Promise<(packed: ExportRow) => ExportRow[]>;
  };
}

export const EXPORT_FORMATS = ['parquet', 'csv', 'ndjson'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export interface ManifestFile {
  /** The name `/bulk/{name}` serves: `<table>.<format>`. */
  readonly name: string;
  readonly table: string;
  readonly format: ExportFormat;
  readonly rows: number;
  readonly bytes: number;
  readonly sha256: string;
  readonly columns: readonly ExportColumn[];
  /** Where the file is, relative to the export directory (a per-export subdirectory). */
  readonly path: string;
}

export interface Manifest {
  readonly dataset_version: number;
  readonly created_at: string;
  readonly files: readonly ManifestFile[];
}
