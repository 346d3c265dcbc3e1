/**
 * Parquet files written by DuckDB (its Node API, @duckdb/node-api): the rows are streamed to a
 * staging CSV file, then DuckDB reads it with every column's type given and writes the Parquet
 * file (`COPY (SELECT * FROM read_csv(…)) TO … (FORMAT parquet)`: streamed, within DuckDB's
 * `memory_limit`, snappy compression, which every Parquet reader supports). DuckDB does the typing,
 * encoding and compression in C++; we only write text. A table's conversion runs on DuckDB's threads
 * while the export stages the next table (the conversions themselves one after the other, on the
 * stage's one connection).
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import type { ExportColumn } from '../types.js';
import { csvWriter } from './text.js';
import type { TableWriter } from './writer.js';

/** DuckDB's memory budget; beyond it, it spills to the staging directory. */
const DUCKDB_MEMORY_LIMIT = '384MB';

const quoteText = (text: string) => `'${text.replaceAll("'", "''")}'`;

export interface ParquetStage {
  writer(path: string, table: string, columns: readonly ExportColumn[]): TableWriter;
  close(): void;
}

/** One in-memory DuckDB for every Parquet file of an export; staging files go to `dir`. */
export async function openParquetStage(dir: string): Promise<ParquetStage> {
  const instance = await DuckDBInstance.create(':memory:', {
    memory_limit: DUCKDB_MEMORY_LIMIT,
    temp_directory: join(dir, 'duckdb.tmp'),
    threads: '1',
  });
  const connection = await instance.connect();
  let converting: Promise<unknown> = Promise.resolve();
  return {
    writer(path, table, columns) {
      const staged = join(dir, `${table}.csv`);
      const csv = csvWriter(staged, columns);
      return {
        write: (rows) => csv.write(rows),
        async close() {
          await csv.close();
          const types = columns.map((c) => `${quoteText(c.name)}: ${quoteText(c.type)}`).join(', ');
          const converted = converting.then(() =>
            connection.run(
              `COPY (SELECT * FROM read_csv(${quoteText(staged)}, header = true, columns = {${types}},
                 allow_quoted_nulls = false, auto_detect = false, delim = ',', quote = '"', escape = '"'))
               TO ${quoteText(path)} (FORMAT parquet)`,
            ),
          );
          converting = converted.catch(() => {});
          await converted;
          rmSync(staged);
        },
      };
    },
    close() {
      connection.closeSync();
      instance.closeSync();
    },
  };
}
