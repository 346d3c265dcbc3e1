#!/usr/bin/env node
/**
 * `regdata serve | demo | status | migrate | ingest <source> | export | db …`. `serve` is parsed on
 * its own (cli/serve.ts), so the API process loads only what serves; every other command, and the
 * help, come from cli/commands.ts, which leaves the server (Fastify), the API's parameter schemas
 * (TypeBox) and the Parquet writer (DuckDB) out (test/unit/cli-imports.test.ts).
 */
import { enableCompileCache } from 'node:module';
import { Command } from 'commander';
import { version } from './version.js';

// V8's compiled code of every module, kept on disk (os.tmpdir()/node-compile-cache, or
// NODE_COMPILE_CACHE; NODE_DISABLE_COMPILE_CACHE=1 turns it off) and reused while the files are
// unchanged: each later `regdata` run, cluster worker and server start skips compiling hundreds of
// modules (Kysely's most of all; for `serve`, Fastify's and TypeBox's too). Called before the
// commands are imported, so that they are what it covers.
enableCompileCache();

const report = (error: unknown) =>
  console.error(`regdata: ${error instanceof Error ? error.message : String(error)}`);

if (process.argv[2] === 'serve') {
  const [{ registerServeCommand }, { flushLog }] = await Promise.all([
    import('./cli/serve.js'),
    import('./http/access-log.js'),
  ]);
  const program = new Command('regdata').version(version);
  registerServeCommand(program);
  await program.parseAsync().catch((error) => {
    report(error);
    flushLog().then(() => process.exit(1)); // what the server logged before it failed
  });
} else {
  const { run } = await import('./cli/commands.js');
  await run().catch((error) => {
    report(error);
    process.exit(1);
  });
}
