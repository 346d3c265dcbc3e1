/**
 * `regdata serve`: the API process. It loads the server and nothing else: migrations and the demo
 * build (`--init-demo`) run first in a child process (`regdata migrate [--init-demo]`), so the
 * ingest, demo and export code — and the memory their modules take, ~60 MB — never enter the
 * process that serves.
 */
import { spawnSync } from 'node:child_process';
import { flushCompileCache } from 'node:module';
import { fileURLToPath } from 'node:url';
import { type Command, InvalidArgumentError } from 'commander';
import { isClusterWorker, runPrimary } from '../cluster.js';
import { loadConfig } from '../config.js';
import { execTunedIfNeeded, limitHeapGrowth } from './runtime-memory.js';

export function integerOption(value: string): number {
  if (!/^\d+$/.test(value)) throw new InvalidArgumentError('must be a non-negative integer');
  return Number(value);
}

/** `regdata migrate [--init-demo]` in a child process with this process's environment. */
function prepareDatabase(initDemo: boolean): void {
  const cli = fileURLToPath(new URL('../cli.js', import.meta.url));
  const result = spawnSync(process.execPath, [cli, 'migrate', ...(initDemo ? ['--init-demo'] : [])], {
    // Its report goes to standard error: standard output carries the server's log lines.
    stdio: ['ignore', 2, 2],
  });
  if (result.status !== 0)
    throw new Error(`migrations failed (regdata migrate exited with ${result.status})`);
}

export function registerServeCommand(program: Command): void {
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
        // Before any work (migrations, cluster): the process may be replaced by a tuned one.
        execTunedIfNeeded(base.tuneMemory, process.env);
        limitHeapGrowth(base.tuneMemory);
        const withPort = options.port === undefined ? base : { ...base, port: options.port };
        const config = options.cache ? withPort : { ...withPort, cacheEnabled: false };
        // Cluster workers re-run this command: the primary already migrated and supervises them.
        if (options.migrate && !isClusterWorker()) prepareDatabase(options.initDemo ?? false);
        if (options.workers > 1 && !isClusterWorker()) {
          process.exit(await runPrimary({ workers: options.workers, args: process.argv.slice(2) }));
        }
        const { startServer } = await import('../server.js');
        await startServer(config);
        // Node writes the compile cache (src/cli.ts) when the process exits; a server stopped by
        // SIGKILL (a container's stop timeout) never would, so it is written once the server listens.
        flushCompileCache();
      },
    );
}
