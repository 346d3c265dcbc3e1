/**
 * Times the holdings demo on its own: `npx vite-node bench/holdings-demo.ts [small|full] [db-path]`.
 * Prints wall time and this process's CPU time (user + system), which stays meaningful on a busy
 * machine where wall time does not.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../src/db/connect.js';
import { migrateToLatest } from '../src/db/migrate.js';
import { buildHoldingsDemo } from '../src/demo/holdings/index.js';
import { DEFAULT_DEMO_SEED, type DemoScale } from '../src/demo/index.js';

const scale = (process.argv[2] ?? 'small') as DemoScale;
const path = process.argv[3] ?? join(mkdtempSync(join(tmpdir(), 'holdings-demo-')), 'demo.sqlite');
const handle = openDatabase(path);
await migrateToLatest(handle);
const wall = Date.now();
const cpu = process.cpuUsage();
await buildHoldingsDemo(handle, { seed: DEFAULT_DEMO_SEED, scale, log: (line) => console.log(line) });
const used = process.cpuUsage(cpu);
console.log(
  `holdings demo (${scale}) → ${path}: wall ${Date.now() - wall} ms, cpu ${Math.round((used.user + used.system) / 1000)} ms`,
);
await handle.close();
