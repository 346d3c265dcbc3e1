#!/usr/bin/env node
/**
 * `regdata serve | demo | status | migrate | ingest <source> | export | db …`. `serve` is parsed on
 * its own (cli/serve.ts), so the API process loads only what serves; every other command, and the
 * help, come from cli/commands.ts.
 */
import { Command } from 'commander';
import { flushLog } from './http/access-log.js';
import { version } from './version.js';

const fail = (error: unknown) => {
  console.error(`regdata: ${error instanceof Error ? error.message : String(error)}`);
  flushLog().then(() => process.exit(1)); // what the server logged before it failed
};

if (process.argv[2] === 'serve') {
  const { registerServeCommand } = await import('./cli/serve.js');
  const program = new Command('regdata').version(version);
  registerServeCommand(program);
  await program.parseAsync().catch(fail);
} else {
  const { run } = await import('./cli/commands.js');
  await run().catch(fail);
}
