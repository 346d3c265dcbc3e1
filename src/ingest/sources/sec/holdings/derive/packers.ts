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

/** The buffers a message can move instead of copying: each owned whole by one value. */
export function transferableBytes(value: PackedRows | PackColumns<PackKind>): ArrayBuffer[] {
  const views: ArrayBufferView[] =
    'table' in value
      ? value.rows.flatMap((row) =>
          'positions' in row ? [row.positions] : 'holders' in row ? [row.holders] : [],
        )
      : 'numbers' in value
        ? [value.security, value.manager, value.status, ...value.numbers]
        : [value.security, value.manager, value.code, value.value, value.shares];
  const seen = new Set<ArrayBufferLike>();
  return views.flatMap((view) => {
    const { buffer } = view;
    const whole = view.byteOffset === 0 && view.byteLength === buffer.byteLength;
    if (!whole || seen.has(buffer) || !(buffer instanceof ArrayBuffer)) return [];
    seen.add(buffer);
    return [buffer];
  });
}
