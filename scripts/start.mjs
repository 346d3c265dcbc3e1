#!/usr/bin/env node
// `npm start`: build when dist/ is missing or older than src/, then serve in this same process
// (so signals reach the server directly), building the demo dataset on first run.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

function newestMtime(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs);
  }
  return newest;
}

const built = existsSync('dist/cli.js') && newestMtime('dist') >= newestMtime('src');
if (!built) {
  console.error('regdata: building …');
  const result = spawnSync('npx', ['tsc', '-p', 'tsconfig.build.json'], { stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
process.argv = [process.argv[0], 'regdata', 'serve', '--init-demo', ...process.argv.slice(2)];
await import('../dist/cli.js');
