/**
 * Every command but `serve` (src/cli.ts runs `serve` from cli/serve.ts alone, so the API process
 * never loads the ingest, demo and export code).
 */
import { Command, Option } from 'commander';
import { type Config, loadConfig } from '../config.js';
import { registerDbCommands } from '../db/cli.js';
import { openDatabase, redactUrl } from '../db/connect.js';
import { datasetVersion, listSources } from '../db/dataset.js';
import { migrateToLatest } from '../db/migrate.js';
import { buildDemo, DEFAULT_DEMO_SEED, type DemoScale } from '../demo/index.js';
import { registerExportCommand } from '../export/cli.js';
import { registerIngestCommand } from '../ingest/cli.js';
import { version } from '../version.js';
import { integerOption, registerServeCommand } from './serve.js';

async function withOwnerDb<T>(
  config: Config,
  run: (handle: ReturnType<typeof openDatabase>) => Promise<T>,
): Promise<T> {
  const handle = openDatabase(config.databaseUrl);
  try {
    return await run(handle);
  } finally {
    await handle.close();
  }
}

/** Builds the demo dataset when nothing at all is loaded yet. */
async function initDemo(config: Config): Promise<void> {
  await withOwnerDb(config, async (handle) => {
    if ((await listSources(handle.db)).length > 0) return;
    console.error('regdata: empty database, building the built-in demo dataset (synthetic data) …');
    await buildDemo(handle, { seed: DEFAULT_DEMO_SEED, scale: 'small', log: (line) => console.error(line) });
  });
}

const program = new Command('regdata')
  .description('Public US financial-regulatory data APIs')
  .version(version);

registerServeCommand(program);

program
  .command('demo')
  .description('(Re)build the deterministic built-in demo dataset (synthetic data, clearly labelled)')
  .option('--seed <n>', 'random seed', integerOption, DEFAULT_DEMO_SEED)
  .addOption(new Option('--scale <scale>', 'dataset size').choices(['small', 'full']).default('small'))
  .action(async (options: { seed: number; scale: DemoScale }) => {
    const config = loadConfig();
    const log = (line: string) => console.error(line);
    await withOwnerDb(config, (handle) =>
      buildDemo(handle, { seed: options.seed, scale: options.scale, log }),
    );
    console.error(`demo dataset written to ${redactUrl(config.databaseUrl)}`);
  });

program
  .command('migrate')
  .description('Bring the database schema up to date')
  .option('--init-demo', 'then build the demo dataset when nothing at all is loaded yet')
  .action(async (options: { initDemo?: boolean }) => {
    const config = loadConfig();
    const applied = await withOwnerDb(config, migrateToLatest);
    console.log(applied.length ? `applied: ${applied.join(', ')}` : 'schema is up to date');
    if (options.initDemo) await initDemo(config);
  });

program
  .command('status')
  .description('Show what is loaded: each source, its upstream, last load, rows, duration, checksum')
  .option('--json', 'print JSON')
  .action(async (options: { json?: boolean }) => {
    const config = loadConfig();
    await withOwnerDb(config, async (handle) => {
      await migrateToLatest(handle);
      const sources = await listSources(handle.db);
      const datasetVer = await datasetVersion(handle.db);
      if (options.json) {
        console.log(
          JSON.stringify(
            { database: redactUrl(config.databaseUrl), dataset_version: datasetVer, sources },
            null,
            2,
          ),
        );
        return;
      }
      console.log(`database: ${redactUrl(config.databaseUrl)}\ndataset version: ${datasetVer}`);
      if (sources.length === 0)
        console.log('nothing loaded: run `regdata demo` or `regdata ingest <source>`');
      for (const s of sources) {
        const label = s.is_demo ? ' [DEMO: synthetic]' : '';
        console.log(
          `${s.source}${label}\n  upstream: ${s.upstream}\n  loaded:   ${s.loaded_at}\n  rows:     ${s.rows}\n  duration: ${s.duration_ms} ms\n  checksum: ${s.checksum ?? '-'}`,
        );
      }
    });
  });

registerIngestCommand(program, () => loadConfig());
registerExportCommand(program, () => loadConfig());
registerDbCommands(program, () => loadConfig());

export async function run(): Promise<void> {
  await program.parseAsync();
}
