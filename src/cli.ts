#!/usr/bin/env node
/** `regdata serve | demo | status | migrate` (and `ingest <source>`). */
import { Command, InvalidArgumentError, Option } from 'commander';
import { isClusterWorker, runPrimary } from './cluster.js';
import { type Config, loadConfig } from './config.js';
import { registerDbCommands } from './db/cli.js';
import { openDatabase, redactUrl } from './db/connect.js';
import { datasetVersion, listSources } from './db/dataset.js';
import { migrateToLatest } from './db/migrate.js';
import { buildDemo, DEFAULT_DEMO_SEED, type DemoScale } from './demo/index.js';
import { registerExportCommand } from './export/cli.js';
import { flushLog } from './http/access-log.js';
import { registerIngestCommand } from './ingest/cli.js';
import { startServer } from './server.js';
import { version } from './version.js';

function integerOption(value: string): number {
  if (!/^\d+$/.test(value)) throw new InvalidArgumentError('must be a non-negative integer');
  return Number(value);
}

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

/** Migrates; with `initDemo`, builds the demo dataset when nothing at all is loaded yet. */
async function prepareDatabase(config: Config, initDemo: boolean): Promise<void> {
  await withOwnerDb(config, async (handle) => {
    await migrateToLatest(handle);
    if (initDemo && (await listSources(handle.db)).length === 0) {
      console.error('regdata: empty database, building the built-in demo dataset (synthetic data) …');
      await buildDemo(handle, {
        seed: DEFAULT_DEMO_SEED,
        scale: 'small',
        log: (line) => console.error(line),
      });
    }
  });
}

const program = new Command('regdata')
  .description('Public US financial-regulatory data APIs')
  .version(version);

program
  .command('serve')
  .description('Serve the banking and holdings APIs')
  .option('-p, --port <port>', 'port (overrides PORT)', integerOption)
  .option('--init-demo', 'build the demo dataset first when the database is empty')
  .option('--no-migrate', 'do not run migrations with DATABASE_URL before serving')
  .option('--no-cache', 'disable the in-process response cache (same as CACHE_ENABLED=false)')
  .option('-w, --workers <n>', 'API processes sharing the port (node:cluster)', integerOption, 1)
  .action(
    async (options: {
      port?: number;
      initDemo?: boolean;
      migrate: boolean;
      cache: boolean;
      workers: number;
    }) => {
      const base = loadConfig();
      const withPort = options.port === undefined ? base : { ...base, port: options.port };
      const config = options.cache ? withPort : { ...withPort, cacheEnabled: false };
      // Cluster workers re-run this command: the primary already migrated and supervises them.
      if (options.migrate && !isClusterWorker()) await prepareDatabase(config, options.initDemo ?? false);
      if (options.workers > 1 && !isClusterWorker()) {
        process.exit(await runPrimary({ workers: options.workers, args: process.argv.slice(2) }));
      }
      await startServer(config);
    },
  );

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
  .action(async () => {
    const applied = await withOwnerDb(loadConfig(), migrateToLatest);
    console.log(applied.length ? `applied: ${applied.join(', ')}` : 'schema is up to date');
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

program.parseAsync().catch((error: unknown) => {
  console.error(`regdata: ${error instanceof Error ? error.message : String(error)}`);
  flushLog().then(() => process.exit(1)); // what the server logged before it failed
});
