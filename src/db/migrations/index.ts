import type { Migration, MigrationProvider } from 'kysely';
import * as core from './0001_core.js';
import * as banking from './0002_banking.js';
import * as holdings from './0003_holdings.js';
import * as infoTables from './0004_info_tables.js';
import * as readIndexes from './0005_read_indexes.js';
import * as macroValuesIndex from './0006_macro_values_index.js';
import * as filerIdentity from './0007_filer_identity.js';
import * as holdingsChanges from './0008_holdings_changes.js';
import * as financialAggregates from './0009_financial_aggregates.js';
import * as identity from './0010_identity.js';
import * as time from './0011_time.js';
import * as managerPortfolios from './0012_manager_portfolios.js';
import * as holdersCoveringIndex from './0013_holders_covering_index.js';
import * as packedChanges from './0014_packed_changes.js';
import * as financialsParentsIndex from './0015_financials_parents_index.js';
import * as securityPositions from './0016_security_positions.js';
import * as binaryInfoRows from './0017_binary_info_rows.js';
import * as crowdedCoveringIndex from './0018_crowded_covering_index.js';

/** Migrations are imported statically so the built package needs no file-system lookups. */
export const migrations: Record<string, Migration> = {
  '0001_core': core,
  '0002_banking': banking,
  '0003_holdings': holdings,
  '0004_info_tables': infoTables,
  '0005_read_indexes': readIndexes,
  '0006_macro_values_index': macroValuesIndex,
  '0007_filer_identity': filerIdentity,
  '0008_holdings_changes': holdingsChanges,
  '0009_financial_aggregates': financialAggregates,
  '0010_identity': identity,
  '0011_time': time,
  '0012_manager_portfolios': managerPortfolios,
  '0013_holders_covering_index': holdersCoveringIndex,
  '0014_packed_changes': packedChanges,
  '0015_financials_parents_index': financialsParentsIndex,
  '0016_security_positions': securityPositions,
  '0017_binary_info_rows': binaryInfoRows,
  '0018_crowded_covering_index': crowdedCoveringIndex,
};

export const migrationProvider: MigrationProvider = {
  getMigrations: async () => migrations,
};
