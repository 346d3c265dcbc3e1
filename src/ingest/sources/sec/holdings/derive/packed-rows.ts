/**
 * Rows of the derived tables that are packed per security (security_positions, holders_by_security)
 * and the holders' counts (security_changes), as the packing functions hand them over in batches:
 * from the packing worker or this thread (background-packing.ts).
 */
import type { SecurityChangesTable } from '../../../../../holdings/tables.js';
import type { Chunks } from './columns.js';

/** A batch closes once its packed values reach about this many bytes (they range from a few bytes to ~0.6 MB). */
export const BYTES_PER_BATCH = 16 << 20;

/** What both kinds gather per position or change: its security and manager by number. */
export interface GatheredColumns {
  readonly quarter: string;
  /** `cusips[s]` is security number s. */
  readonly cusips: readonly string[];
  /** In ascending order: manager number m is `ciks[m]`. */
  readonly ciks: readonly string[];
  readonly security: Chunks<Uint32Array>;
  readonly manager: Chunks<Uint32Array>;
}

export type PackedRows =
  | { table: 'security_positions'; rows: { quarter: string; cusip: string; positions: Uint8Array }[] }
  | { table: 'holders_by_security'; rows: { quarter: string; cusip: string; holders: Uint8Array }[] }
  | { table: 'security_changes'; rows: SecurityChangesTable[] };

/** `rows` in batches, each closed once its packed values (`bytesOf`) reach about BYTES_PER_BATCH. */
export function* batchesOf<R>(rows: Iterable<R>, bytesOf: (row: R) => number): Generator<R[]> {
  let batch: R[] = [];
  let bytes = 0;
  for (const row of rows) {
    batch.push(row);
    bytes += bytesOf(row);
    if (bytes >= BYTES_PER_BATCH) {
      yield batch;
      batch = [];
      bytes = 0;
    }
  }
  if (batch.length > 0) yield batch;
}
