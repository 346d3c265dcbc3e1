/**
 * The ingest process of `npm run bench:ingest`: the same path as `regdata ingest sec-13f --from
 * <zip>` (migrations, runSource with staging, swap and derivation) into a fresh SQLite file, then one
 * JSON line with the load summary and this process's peak RSS. With `--beside-reader`, a second
 * connection holds the file open as a server would, so the swap keeps the WAL instead of the rollback
 * journal of a first load written alone (src/ingest/core/run.ts).
 */
import { configWith } from '../src/config.js';
import { openDatabase } from '../src/db/connect.js';
import { migrateToLatest } from '../src/db/migrate.js';
import { runSource } from '../src/ingest/core/run.js';
import { sec13fSource } from '../src/ingest/sources/sec/source-13f.js';

const [zip, databaseUrl, beside] = process.argv.slice(2);
if (!zip || !databaseUrl) throw new Error('usage: ingest-child <zip> <sqlite file> [--beside-reader]');

const started = Date.now();
const handle = openDatabase(databaseUrl);
await migrateToLatest(handle);
// As a server would: another connection that has read the file, so the load keeps the WAL.
const reader = beside === '--beside-reader' ? openDatabase(databaseUrl, { readonly: true }) : null;
await reader?.db.selectFrom('sources').selectAll().execute();
const summary = await runSource(sec13fSource, {
  handle,
  config: configWith({ databaseUrl }),
  options: { from: [zip] },
  progressMode: 'none',
  log: (line) =>
    process.stderr.write(
      `[${((Date.now() - started) / 1000).toFixed(1)} s, cpu ${(process.cpuUsage().user / 1e6).toFixed(1)} s] ${line}\n`,
    ),
});
await handle.close();
await reader?.close();
const usage = process.resourceUsage();
const cpuMs = (usage.userCPUTime + usage.systemCPUTime) / 1000;
const peakRssKb = usage.maxRSS;
process.stdout.write(`${JSON.stringify({ summary, wallMs: Date.now() - started, cpuMs, peakRssKb })}\n`);
