/**
 * The packing worker (background-packing.ts): packs a quarter's security positions or holders sent
 * by the deriving thread and posts the rows back a batch at a time, their packed bytes moved rather
 * than copied. Jobs run one after another, in the order sent.
 */
import { parentPort } from 'node:worker_threads';
import { PACKERS, type PackJob, type PackMessage } from './packers.js';
import { columnViews, ownedBuffers } from './transfer.js';

const port = parentPort;
if (!port) throw new Error('pack-worker.ts runs as a worker thread');
port.on('message', (job: PackJob) => {
  try {
    for (const batch of PACKERS[job.kind](job.columns as never)) {
      port.postMessage(
        { id: job.id, type: 'batch', batch } satisfies PackMessage,
        ownedBuffers(batch.rows.flatMap(columnViews)),
      );
    }
    port.postMessage({ id: job.id, type: 'done' } satisfies PackMessage);
  } catch (error) {
    const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
    port.postMessage({ id: job.id, type: 'error', message } satisfies PackMessage);
  }
});
