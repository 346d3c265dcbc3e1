/**
 * `npm run bench:ingest`: builds a synthetic Form 13F data set ZIP at real scale in SEC's exact layout
 * (SYNTHETIC_ROWS / SYNTHETIC_FILINGS override the size), then times in one run
 *   (a) a plain streaming read of the ZIP's rows: inflate + split into fields (the I/O floor), and
 *   (b) the full `sec-13f` ingest with derivation into a fresh SQLite database, in its own process
 *       (a first load with no other connection: written through a rollback journal, run.ts), and
 *   (c) the same load beside a reader holding the file open, as a server would (it keeps the WAL),
 * and prints rows per second, the times, their ratios and the ingest processes' peak RSS.
 * Targets (issue 19): (b) ≤ 3 × (a), peak RSS < 1.5 GB; (c) is printed for comparison.
 */
import { execFileSync, spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import type { LoadSummary } from '../src/ingest/core/summary.js';
import { openDatasetZip } from '../src/ingest/sources/sec/dataset-zip.js';
import { readTsvBatches } from '../src/ingest/sources/sec/tsv.js';
import { REAL_SCALE, writeSyntheticDataset } from './sec-13f-synthetic.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const MAX_RATIO = 3;
const MAX_RSS_MB = 1536;

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** Transpiles src/ and the child runner (no bundling), as the built package would run. */
async function buildChild(out: string): Promise<string> {
  copyFileSync(join(ROOT, 'package.json'), join(out, 'package.json'));
  // The checked-in identity-graph overrides, read from beside src/ as in the package.
  mkdirSync(join(out, 'config'), { recursive: true });
  copyFileSync(join(ROOT, 'config', 'entity-overrides.json'), join(out, 'config', 'entity-overrides.json'));
  await build({
    entryPoints: [...sources(join(ROOT, 'src')), join(ROOT, 'bench', 'ingest-child.ts')],
    outdir: out,
    outbase: ROOT,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    logLevel: 'silent',
  });
  // version.ts reads ../package.json from src/.
  return join(out, 'bench', 'ingest-child.js');
}

async function plainRead(zipPath: string): Promise<number> {
  const zip = await openDatasetZip(zipPath);
  let rows = 0;
  for (const member of ['SUBMISSION.tsv', 'COVERPAGE.tsv', 'SUMMARYPAGE.tsv', 'INFOTABLE.tsv']) {
    for await (const batch of readTsvBatches(await zip.open(member))) rows += batch.rows.length;
  }
  zip.close();
  return rows;
}

function runChild(
  script: string,
  zip: string,
  db: string,
  besideReader = false,
): Promise<{ summary: LoadSummary; cpuMs: number; peakRssKb: number }> {
  const args = [script, zip, db, ...(besideReader ? ['--beside-reader'] : [])];
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`ingest process exited ${code}`));
      resolvePromise(JSON.parse(stdout.trim().split('\n').pop() ?? '{}'));
    });
  });
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const rate = (rows: number, ms: number) => `${Math.round(rows / (ms / 1000)).toLocaleString('en-US')} rows/s`;

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'regdata-bench-ingest-'));
  const cleanup = [dir];
  try {
    const options = {
      ...REAL_SCALE,
      rows: Number(process.env.SYNTHETIC_ROWS ?? REAL_SCALE.rows),
      filings: Number(process.env.SYNTHETIC_FILINGS ?? REAL_SCALE.filings),
    };
    const zip = join(dir, '01dec2025-28feb2026_form13f.zip');
    let started = Date.now();
    const written = await writeSyntheticDataset(zip, options);
    const mb = statSync(zip).size / 1e6;
    console.log(
      `data set: ${written.filings} filings, ${written.rows} INFOTABLE rows, ${mb.toFixed(0)} MB ZIP (built in ${seconds(Date.now() - started)})`,
    );
    // The ZIP just written is still being flushed to disk: let that finish before timing anything.
    execFileSync('sync');

    started = Date.now();
    const cpuBefore = process.cpuUsage();
    const readRows = await plainRead(zip);
    const readMs = Date.now() - started;
    const readCpu = process.cpuUsage(cpuBefore);
    const readCpuMs = (readCpu.user + readCpu.system) / 1000;
    console.log(
      `(a) plain streaming read: ${readRows} rows in ${seconds(readMs)} (${rate(readRows, readMs)}; cpu ${seconds(readCpuMs)})`,
    );

    // Inside node_modules so the transpiled files resolve the project's packages.
    const out = join(ROOT, 'node_modules', '.cache', `regdata-bench-ingest-${process.pid}`);
    mkdirSync(out, { recursive: true });
    cleanup.push(out);
    const child = await buildChild(out);
    started = Date.now();
    const result = await runChild(child, zip, join(dir, 'bench.sqlite'));
    const ingestMs = Date.now() - started;
    if (!result.summary.ok) throw new Error(`ingest failed: ${result.summary.error}`);
    const rssMb = result.peakRssKb / 1024;
    console.log(
      `(b) full ingest + derivation: ${result.summary.read} rows in ${seconds(ingestMs)} (${rate(readRows, ingestMs)}; cpu ${seconds(result.cpuMs)}), peak RSS ${rssMb.toFixed(0)} MB`,
    );
    const ratio = ingestMs / readMs;
    // On a busy machine wall time also measures other processes; CPU time is the steadier comparison.
    console.log(`cpu time ratio (b)/(a): ${(result.cpuMs / readCpuMs).toFixed(2)}`);
    console.log(
      `ratio (b)/(a): ${ratio.toFixed(2)}  [target ≤ ${MAX_RATIO}]  ${ratio <= MAX_RATIO ? 'OK' : 'MISSED'}`,
    );
    console.log(
      `peak memory: ${rssMb.toFixed(0)} MB  [target < ${MAX_RSS_MB} MB]  ${rssMb < MAX_RSS_MB ? 'OK' : 'MISSED'}`,
    );

    execFileSync('sync'); // (b)'s file is still being written back: not on (c)'s time
    started = Date.now();
    const beside = await runChild(child, zip, join(dir, 'beside.sqlite'), true);
    const besideMs = Date.now() - started;
    if (!beside.summary.ok) throw new Error(`ingest beside a reader failed: ${beside.summary.error}`);
    console.log(
      `(c) the same load beside a reader (WAL): ${seconds(besideMs)} (cpu ${seconds(beside.cpuMs)}), peak RSS ${(beside.peakRssKb / 1024).toFixed(0)} MB; ratio (c)/(a): ${(besideMs / readMs).toFixed(2)}`,
    );
    if (ratio > MAX_RATIO || rssMb >= MAX_RSS_MB) process.exitCode = 1;
  } finally {
    for (const path of cleanup) rmSync(path, { recursive: true, force: true });
  }
}

await main();
