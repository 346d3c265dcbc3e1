/** `regdata export --format parquet|csv|ndjson --out DIR` (SPEC §9, docs/bulk.md). */
import { type Command, Option } from 'commander';
import type { Config } from '../config.js';
import { openDatabase } from '../db/connect.js';
import { EXPORT_FORMATS, type ExportFormat } from './types.js';

export function registerExportCommand(program: Command, loadConfig: () => Config): void {
  program
    .command('export')
    .description('Write every table (Parquet, CSV or NDJSON) and a manifest into a directory, for /bulk/')
    .addOption(new Option('--format <format>', 'file format').choices(EXPORT_FORMATS).default('parquet'))
    .requiredOption('--out <dir>', 'output directory (EXPORT_DIR of the server that publishes it)')
    .action(async (options: { format: ExportFormat; out: string }) => {
      const config = loadConfig();
      // Loaded here, not with the CLI: the Parquet writer (DuckDB) takes ~0.1 s to load.
      const { exportDataset } = await import('./run.js');
      const handle = openDatabase(config.databaseReadUrl ?? config.databaseUrl, { readonly: true });
      try {
        await exportDataset(handle, {
          format: options.format,
          out: options.out,
          log: (line) => console.error(line),
        });
      } catch (error) {
        console.error(
          `regdata export: failed, the previous export is untouched: ${(error as Error).message}`,
        );
        process.exitCode = 1;
      } finally {
        await handle.close();
      }
    });
}
