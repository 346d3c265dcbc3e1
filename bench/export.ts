/**
 * Times `regdata export` of the full-scale demo (bench/.out/full.sqlite, built by `npm run bench`)
 * in one format: wall and CPU time, the process's peak RSS (DuckDB's memory included: it runs in
 * this process), and each file's rows and bytes. Goal (issue 18): ≤ 2 minutes, ≤ 1 GB.
 *
 *   npm run bench:export [-- parquet|csv|ndjson] [database]
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../src/db/connect.js';
import { exportDataset } from '../src/export/run.js';
import { EXPORT_FORMATS, type ExportFormat } from '../src/export/types.js';

const args = process.argv.slice(2).filter((arg) => arg !== '--');
const format = (args[0] ?? 'parquet') as ExportFormat;
const database = args[1] ?? 'bench/.out/full.sqlite';
if (!EXPORT_FORMATS.includes(format)) throw new Error(`format must be one of ${EXPORT_FORMATS.join(', ')}`);
if (!existsSync(database)) throw new Error(`${database} is missing: \`npm run bench\` builds it (once)`);

const out = mkdtempSync(join(tmpdir(), 'regdata-export-bench-'));
const handle = openDatabase(database, { readonly: true });
const started = Date.now();
const cpu = process.cpuUsage();
try {
  const manifest = await exportDataset(handle, { format, out, log: (line) => console.error(line) });
  const used = process.cpuUsage(cpu);
  const rows = manifest.files.reduce((sum, file) => sum + file.rows, 0);
  const bytes = manifest.files.reduce((sum, file) => sum + file.bytes, 0);
  console.log(
    `export ${format} of ${database}: ${manifest.files.length} files, ${rows} rows, ${(bytes / 1e6).toFixed(0)} MB in ` +
      `${((Date.now() - started) / 1000).toFixed(1)} s wall, ${((used.user + used.system) / 1e6).toFixed(1)} s CPU ` +
      `(this process; DuckDB's threads included), peak RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`,
  );
} finally {
  await handle.close();
  rmSync(out, { recursive: true, force: true });
}
