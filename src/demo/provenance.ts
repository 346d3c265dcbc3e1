/** How a demo part records itself in the provenance table: synthetic, and labelled as such. */
import type { Transaction } from 'kysely';
import { recordSource } from '../db/dataset.js';
import type { DemoSource } from '../db/demo-sources.js';
import type { Database } from '../db/tables.js';

export const DEMO_UPSTREAM = 'built-in demo dataset (synthetic)';

export async function recordDemoSource(
  trx: Transaction<Database>,
  source: DemoSource,
  rows: number,
  started: number,
  notes: string,
): Promise<void> {
  await recordSource(trx, {
    source,
    upstream: DEMO_UPSTREAM,
    loaded_at: new Date().toISOString(),
    rows,
    duration_ms: Date.now() - started,
    checksum: null,
    is_demo: 1,
    notes,
  });
}
