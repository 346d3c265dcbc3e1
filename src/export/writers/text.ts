/**
 * CSV (RFC 4180, header row) and NDJSON (one JSON object per line) files, streamed to disk a batch
 * at a time with backpressure: at most one batch is in memory.
 */
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { finished } from 'node:stream/promises';
import type { ExportColumn } from '../types.js';
import { csvEncoder, csvHeader } from './csv-line.js';
import { coerce, type TableWriter } from './writer.js';

function fileWriter(
  path: string,
  header: string,
  encode: (rows: readonly unknown[][]) => string,
): TableWriter {
  const file = createWriteStream(path);
  if (header) file.write(header);
  return {
    async write(rows) {
      if (!file.write(encode(rows))) await once(file, 'drain');
    },
    async close() {
      file.end();
      await finished(file);
    },
  };
}

export function csvWriter(path: string, columns: readonly ExportColumn[]): TableWriter {
  return fileWriter(path, csvHeader(columns), csvEncoder(columns));
}

export function ndjsonWriter(path: string, columns: readonly ExportColumn[]): TableWriter {
  return fileWriter(path, '', (rows) => {
    let text = '';
    for (const row of rows) {
      const record: Record<string, unknown> = {};
      for (let i = 0; i < columns.length; i++) {
        const column = columns[i] as ExportColumn;
        record[column.name] = coerce(column, row[i]);
      }
      text += `${JSON.stringify(record)}\n`;
    }
    return text;
  });
}
