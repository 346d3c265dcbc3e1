/**
 * The packing jobs the derivation hands off (background-packing.ts), by kind: pure functions of
 * typed-array columns, so the packing worker (pack-worker.ts) and this thread run the same code.
 */
import type { PackedRows } from './packed-rows.js';
import { type HolderColumns, packHolders } from './quarter-holders.js';
import { packSecurityPositions, type SecurityPositionColumns } from './security-positions.js';

export const PACKERS = {
  'security-positions': (columns: SecurityPositionColumns) => packSecurityPositions(columns),
  holders: (columns: HolderColumns) => packHolders(columns),
} as const;

export type PackKind = keyof typeof PACKERS;
export type PackColumns<K extends PackKind> = Parameters<(typeof PACKERS)[K]>[0];

/** To the packing worker. */
export interface PackJob {
  id: number;
  kind: PackKind;
  columns: PackColumns<PackKind>;
}

/** From the packing worker. */
export type PackMessage =
  | { id: number; type: 'batch'; batch: PackedRows }
  | { id: number; type: 'done' }
  | { id: number; type: 'error'; message: string };
