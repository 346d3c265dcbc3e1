/**
 * `regdata export`: every table of EXPORT_TABLES to one file each in a new subdirectory of the
 * output directory, then `manifest.json` (rows, bytes, sha256, typed columns with units) written
 * last and renamed into place, so a reader — `/bulk/` of a server with EXPORT_DIR — sees either the
 * previous export or the complete new one, never a half-written file. The tables are read in one
 * read transaction (a snapshot: a load committing meanwhile is not half in the export). A failed
 * export removes what it wrote and leaves the previous export as it was.
 */
import { createHash } from 'node:crypto';
import {
  createReadStream,
  mkdirSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import type { Transaction } from 'kysely';
import type { DbHandle } from '../db/connect.js';
import { datasetVersion } from '../db/dataset.js';
import type { Database } from '../db/tables.js';
import { batchRows, readRows } from './read.js';
import { EXPORT_TABLES } from './tables/index.js';
import { type ExportFormat, type ExportTable, MANIFEST, type Manifest, type ManifestFile } from './types.js';
import { openParquetStage, type ParquetStage } from './writers/parquet.js';
import { csvWriter, ndjsonWriter } from './writers/text.js';
import type { TableWriter } from './writers/writer.js';

/** Subdirectories exports write their files into: `export-<dataset version>-<time>`. */
export const EXPORT_SUBDIR = /^export-\d+-\d+$/;

export interface ExportOptions {
  readonly format: ExportFormat;
  readonly out: string;
  readonly log?: (line: string) => void;
  readonly tables?: readonly ExportTable[];
}

async function sha256Of(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/**
 * Streams the table's rows into `writer`; resolves to the row count and the writer's `close()`,
 * which finishes the file meanwhile (DuckDB converts a staged table while the next one is read).
 */
async function writeTable(
  handle: DbHandle,
  trx: Transaction<Database>,
  table: ExportTable,
  writer: TableWriter,
): Promise<{ rows: number; finished: Promise<void> }> {
  let rows = 0;
  try {
    const complete = table.complete ? await table.complete(trx) : null;
    const unpack = table.unpack ? await table.unpack.rows(trx) : null;
    const perRead = table.unpack?.readAtOnce ?? batchRows(table.columns.length);
    for await (const read of readRows(handle, trx, table.query(trx), perRead)) {
      const batch = unpack ? read.flatMap(unpack) : read;
      await writer.write(complete ? batch.map(complete) : batch);
      rows += batch.length;
    }
  } catch (error) {
    await writer.close().catch(() => {});
    throw error;
  }
  return { rows, finished: writer.close() };
}

function openWriter(stage: ParquetStage | null, format: ExportFormat, path: string, table: ExportTable) {
  if (format === 'parquet') return (stage as ParquetStage).writer(path, table.name, table.columns);
  return format === 'csv' ? csvWriter(path, table.columns) : ndjsonWriter(path, table.columns);
}

/** Writes the export; returns its manifest. Throws (having removed its files) when anything fails. */
export async function exportDataset(handle: DbHandle, options: ExportOptions): Promise<Manifest> {
  const log = options.log ?? (() => {});
  mkdirSync(options.out, { recursive: true });
  if (!statSync(options.out).isDirectory()) throw new Error(`${options.out} is not a directory`);
  const started = Date.now();
  const stageDir = join(options.out, `.stage-${process.pid}-${started}`);
  mkdirSync(stageDir);
  let exportDir: string | null = null;
  try {
    const manifest = await handle.db
      .transaction()
      .setIsolationLevel('repeatable read')
      .execute(async (trx) => {
        const version = await datasetVersion(trx);
        const subdir = `export-${version}-${started}`;
        exportDir = join(options.out, subdir);
        mkdirSync(exportDir);
        const stage = options.format === 'parquet' ? await openParquetStage(stageDir) : null;
        const finishing: Promise<ManifestFile>[] = [];
        try {
          for (const table of options.tables ?? EXPORT_TABLES) {
            const name = `${table.name}.${options.format}`;
            const path = join(exportDir, name);
            const tableStarted = Date.now();
            const writer = openWriter(stage, options.format, path, table);
            const { rows, finished } = await writeTable(handle, trx, table, writer);
            const file = finished.then(async (): Promise<ManifestFile> => {
              const bytes = statSync(path).size;
              log(`export: ${name}: ${rows} rows, ${bytes} bytes (${Date.now() - tableStarted} ms)`);
              // biome-ignore format: one manifest entry
              return { name, table: table.table, format: options.format, rows, bytes, sha256: await sha256Of(path),
                columns: table.columns.map(({ name, type, unit }) => ({ name, type, unit })), path: `${subdir}/${name}` };
            });
            file.catch(() => {}); // awaited below, with the others
            finishing.push(file);
          }
        } finally {
          // Every file finished (or failed) before DuckDB closes; a failure is thrown below.
          await Promise.allSettled(finishing);
          stage?.close();
        }
        const files = await Promise.all(finishing);
        return { dataset_version: version, created_at: new Date().toISOString(), files };
      });
    const manifestPath = join(options.out, MANIFEST);
    writeFileSync(`${manifestPath}.tmp`, `${JSON.stringify(manifest, null, 2)}\n`);
    renameSync(`${manifestPath}.tmp`, manifestPath);
    removeOlderExports(options.out, manifest);
    log(`export: ${manifest.files.length} files in ${Date.now() - started} ms, manifest ${manifestPath}`);
    return manifest;
  } catch (error) {
    if (exportDir) rmSync(exportDir, { recursive: true, force: true });
    throw error;
  } finally {
    rmSync(stageDir, { recursive: true, force: true });
  }
}

/** Earlier exports' subdirectories (a download already open keeps reading its file after removal). */
function removeOlderExports(out: string, manifest: Manifest): void {
  const current = new Set(manifest.files.map((file) => file.path.split('/')[0]));
  for (const entry of readdirSync(out)) {
    if (EXPORT_SUBDIR.test(entry) && !current.has(entry))
      rmSync(join(out, entry), { recursive: true, force: true });
  }
}
