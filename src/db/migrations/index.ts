import type { Migration, MigrationProvider } from 'kysely';
import * as core from './0001_core.js';
import * as banking from './0002_banking.js';
import * as holdings from './0003_holdings.js';

/** Migrations are imported statically so the built package needs no file-system lookups. */
export const migrations: Record<string, Migration> = {
  '0001_core': core,
  '0002_banking': banking,
  '0003_holdings': holdings,
};

export const migrationProvider: MigrationProvider = {
  getMigrations: async () => migrations,
};
