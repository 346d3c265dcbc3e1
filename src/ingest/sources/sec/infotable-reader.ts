/**
 * Runs infotable-parse.ts for the loading thread: in a worker thread when the compiled worker is
 * there (the built package, the CLI), so parsing and staging use both cores; in this thread when it
 * is not (sources run as TypeScript, as in-process tests do). Either way the batches are the same.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { openDatasetZip } from './dataset-zip.js';
import { type LoadFilings, type ParsedBatch, parseInfoTable } from './infotable-parse.js';
import type { WorkerInput, WorkerMessage } from './infotable-worker.js';

const WORKER = new URL('./infotable-worker.js', import.meta.url);

/** Parses INFOTABLE of the data set `zip` (which the worker takes over: do not use it afterwards). */
export function readInfoTable(zip: Buffer, name: string, filings: LoadFilings): AsyncGenerator<ParsedBatch> {
  return existsSync(fileURLToPath(WORKER)) ? inWorker(zip, name, filings) : inThisThread(zip, name, filings);
}

async function* inThisThread(zip: Buffer, name: string, filings: LoadFilings): AsyncGenerator<ParsedBatch> {
  const dataset = await openDatasetZip(zip, name);
  try {
    yield* parseInfoTable(dataset, filings);
  } finally {
    dataset.close();
  }
}

async function* inWorker(zip: Buffer, name: string, filings: LoadFilings): AsyncGenerator<ParsedBatch> {
  // The data set's bytes move to the worker rather than being copied (a Buffer that shares its
  // memory with others is copied first): the caller must not use `zip` afterwards.
  const owned = zip.byteOffset === 0 && zip.byteLength === zip.buffer.byteLength ? zip : Buffer.from(zip);
  const input: WorkerInput = { zip: owned, name, filings };
  const worker = new Worker(WORKER, {
    workerData: input,
    transferList: [owned.buffer as ArrayBuffer],
    // The parser allocates a few short-lived objects per row. 48 MB of young generation: on Node 20
    // (default 16) it parsed 3.8 M rows in 7 s instead of 10; on Node 24 the default grows with the
    // machine's memory (192 MB on 24 GiB) and is no faster, with ~115 MB more peak RSS.
    resourceLimits: { maxYoungGenerationSizeMb: 48 },
  });
  const queue: WorkerMessage[] = [];
  let wake: (() => void) | null = null;
  let failure: Error | null = null;
  const notify = () => {
    wake?.();
    wake = null;
  };
  worker.on('message', (message: WorkerMessage) => {
    queue.push(message);
    notify();
  });
  worker.on('error', (error) => {
    failure = error;
    notify();
  });
  // Messages posted before the exit are delivered before it, so 'done' is always seen first.
  worker.on('exit', (code) => {
    failure ??= new Error(`the INFOTABLE parsing worker stopped early (exit code ${code})`);
    notify();
  });
  try {
    for (;;) {
      const message = queue.shift();
      if (!message) {
        if (failure) throw failure;
        await new Promise<void>((done) => (wake = done));
        continue;
      }
      if (message.type === 'done') return;
      if (message.type === 'error') throw new Error(message.message);
      yield message.batch;
      worker.postMessage('ack');
    }
  } finally {
    await worker.terminate();
  }
}
