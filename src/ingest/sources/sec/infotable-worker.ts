/**
 * The parsing worker of `regdata ingest sec-13f`: inflates, parses and validates a data set's
 * INFOTABLE into flat arrays (infotable-parse.ts) and posts the batches to the loading thread,
 * which meanwhile packs, sums and stages the previous ones. At most MAX_UNACKNOWLEDGED batches are in flight, so
 * a slow database never makes the parsed data pile up in memory.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { openDatasetZip } from './dataset-zip.js';
import { encodeRecords } from './holdings/info-row-codec.js';
import { type LoadFilings, type ParsedBatch, parseInfoTable } from './infotable-parse.js';

export interface WorkerInput {
  zip: Uint8Array;
  name: string;
  filings: LoadFilings;
}

export type WorkerMessage =
  | { type: 'batch'; batch: ParsedBatch }
  | { type: 'done' }
  | { type: 'error'; message: string };

/**
 * A column's memory, to transfer: only a column that is its whole buffer (a fresh copy, as
 * FieldColumns.take makes), since transferring detaches the buffer for every view of it.
 */
function ownBuffer(column: Uint8Array | Uint32Array | Int32Array | Float64Array): ArrayBuffer {
  if (column.byteOffset !== 0 || column.byteLength !== column.buffer.byteLength)
    throw new Error('a parsed column shares its buffer: it cannot be transferred');
  return column.buffer as ArrayBuffer;
}

/** ~80,000 rows: enough slack to ride out the loading thread's bursts (a staging flush). */
const MAX_UNACKNOWLEDGED = 8;
/**
 * With this many batches still unacknowledged the loading thread is behind, and this thread would
 * soon wait for it: it encodes the batch's stored records itself (encodeRecords), ~40 % of the
 * loading thread's work per row. Which thread is the busier one depends on the machine, so the
 * work goes wherever there is time: all of it on the loading thread moved the bottleneck here.
 */
const ENCODE_WHEN_UNACKNOWLEDGED = MAX_UNACKNOWLEDGED / 2;

async function main(port: NonNullable<typeof parentPort>, input: WorkerInput) {
  let unacknowledged = 0;
  let wake: (() => void) | null = null;
  port.on('message', () => {
    unacknowledged -= 1;
    wake?.();
  });
  const zip = await openDatasetZip(
    Buffer.from(input.zip.buffer, input.zip.byteOffset, input.zip.byteLength),
    input.name,
  );
  try {
    for await (const batch of parseInfoTable(zip, input.filings)) {
      while (unacknowledged >= MAX_UNACKNOWLEDGED) await new Promise<void>((done) => (wake = done));
      if (unacknowledged >= ENCODE_WHEN_UNACKNOWLEDGED)
        batch.encoded = encodeRecords(
          batch.fields,
          batch.records.map((record) => record.rows),
        );
      const columns = [
        ...Object.values(batch.fields),
        ...(batch.encoded ? Object.values(batch.encoded) : []),
      ];
      const transfer = columns.map(ownBuffer);
      port.postMessage({ type: 'batch', batch } satisfies WorkerMessage, transfer);
      unacknowledged += 1;
    }
  } finally {
    zip.close();
  }
  port.postMessage({ type: 'done' } satisfies WorkerMessage);
  port.close();
}

if (parentPort) {
  const port = parentPort;
  main(port, workerData as WorkerInput).catch((error: Error) => {
    port.postMessage({ type: 'error', message: error.message } satisfies WorkerMessage);
    port.close();
  });
}
