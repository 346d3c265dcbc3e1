/**
 * Quarter-over-quarter changes packed into binary values (migration 0014): one per manager quarter
 * (`changes_by_manager`, in the changes page's order) and one per security quarter
 * (`holders_by_security`, in the holders page's order), written by the derivation instead of
 * millions of `position_changes` rows with two indexes (three copies of every change).
 *
 * Layout, little-endian, n rows, h head values, k number columns, keys of w ASCII bytes:
 *   u32 n | u32 format | f64 head × h | (f64 × n) × k | u8 status × n | key × n (w bytes each)
 * Numbers are stored as computed (no rounding); a status is its index in CHANGE_STATUSES.
 */
import { requireLittleEndian } from '../little-endian.js';
import { CHANGE_STATUSES, type ChangeStatus, type PositionChange } from './tables.js';

const HEAD = 8;

requireLittleEndian('packed changes');

/** What one packed value holds: its format number, head values, number columns and key width. */
export interface ChangeLayout {
  readonly format: number;
  readonly head: number;
  readonly columns: number;
  readonly keyBytes: number;
}

/**
 * Rows in the order they are to be stored, handed over a column at a time: one call per column
 * (its loop in the caller, over the caller's own arrays) rather than one per value, which the
 * derivation makes millions of times a quarter.
 */
export interface ChangeRows {
  readonly count: number;
  readonly head: readonly number[];
  /** Writes number column `column` of every row, in order, into `into` (`count` long). */
  numbers(column: number, into: Float64Array): void;
  /** Writes every row's status (its index in CHANGE_STATUSES) into `into`. */
  statuses(into: Uint8Array): void;
  /** Writes every row's key (the layout's keyBytes ASCII bytes) into `into`, back to back. */
  keys(into: Buffer): void;
}

const sizeOf = (layout: ChangeLayout, n: number) =>
  HEAD + 8 * layout.head + n * (8 * layout.columns + 1 + layout.keyBytes);

export function packChanges(layout: ChangeLayout, rows: ChangeRows): Buffer {
  const n = rows.count;
  // Its own ArrayBuffer, so the numbers start 8-byte aligned and are written through a Float64Array
  // (this platform's byte order: little-endian, as unpackChanges and portfolio-pack.ts read them).
  const buffer = Buffer.from(new ArrayBuffer(sizeOf(layout, n)));
  buffer.writeUInt32LE(n, 0);
  buffer.writeUInt32LE(layout.format, 4);
  const numbers = new Float64Array(buffer.buffer, HEAD, layout.head + n * layout.columns);
  for (let h = 0; h < layout.head; h++) numbers[h] = rows.head[h] as number;
  for (let c = 0; c < layout.columns; c++) {
    const at = layout.head + n * c;
    rows.numbers(c, numbers.subarray(at, at + n));
  }
  const statusesAt = HEAD + 8 * (layout.head + n * layout.columns);
  rows.statuses(buffer.subarray(statusesAt, statusesAt + n));
  const keysAt = statusesAt + n;
  rows.keys(buffer.subarray(keysAt, keysAt + layout.keyBytes * n));
  return buffer;
}

/** Writes an ASCII key of exactly `bytes` characters (ChangeRows.key for string keys). */
export function writeKey(key: string, bytes: number, into: Buffer, at: number): void {
  if (key.length !== bytes) throw new Error(`key ${key} is not ${bytes} characters`);
  into.write(key, at, bytes, 'latin1');
}

/** A packed value, read: its columns in stored order. */
export interface PackedChanges {
  readonly count: number;
  readonly head: Float64Array;
  column(c: number): Float64Array;
  readonly statuses: Uint8Array;
  status(i: number): ChangeStatus;
  key(i: number): string;
}

/** The columns of a packed value (`bytes`: the stored value, as either driver returns it). */
export function unpackChanges(layout: ChangeLayout, bytes: Uint8Array): PackedChanges {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const n = view.getUint32(0, true);
  const format = view.getUint32(4, true);
  if (format !== layout.format || bytes.byteLength !== sizeOf(layout, n))
    throw new Error(
      `not packed changes of format ${layout.format} (format ${format}, ${bytes.byteLength} bytes for ${n} rows)`,
    );
  const doubles = layout.head + n * layout.columns;
  // Float64Array needs an 8-byte aligned start: copy the numbers out when the bytes are not aligned.
  const numbers =
    (bytes.byteOffset + HEAD) % 8 === 0
      ? new Float64Array(bytes.buffer, bytes.byteOffset + HEAD, doubles)
      : new Float64Array(bytes.buffer.slice(bytes.byteOffset + HEAD, bytes.byteOffset + HEAD + 8 * doubles));
  const statusesAt = bytes.byteOffset + HEAD + 8 * doubles;
  const statuses = new Uint8Array(bytes.buffer, statusesAt, n);
  const keys = Buffer.from(bytes.buffer, statusesAt + n, n * layout.keyBytes);
  const w = layout.keyBytes;
  return {
    count: n,
    head: numbers.subarray(0, layout.head),
    column: (c) => numbers.subarray(layout.head + n * c, layout.head + n * (c + 1)),
    statuses,
    status: (i) => CHANGE_STATUSES[statuses[i] as number] as ChangeStatus,
    key: (i) => keys.toString('latin1', w * i, w * i + w),
  };
}

/** Row indexes of a packed value in stored order, of one status only when given, for a page. */
export function pageRows(
  packed: PackedChanges,
  status: ChangeStatus | undefined,
  limit: number,
  offset: number,
) {
  const wanted = status === undefined ? -1 : CHANGE_STATUSES.indexOf(status);
  const rows: number[] = [];
  let matched = wanted < 0 ? offset : 0;
  for (let i = matched; i < packed.count && rows.length < limit; i++) {
    if (wanted >= 0 && packed.statuses[i] !== wanted) continue;
    matched++;
    if (matched > offset) rows.push(i);
  }
  return rows;
}

/** Number columns of both layouts. */
export const SHARES_BEFORE = 0;
export const SHARES_AFTER = 1;
export const VALUE_BEFORE = 2;
export const VALUE_AFTER = 3;

/**
 * A manager quarter's changes in its changes page's order (|value_after − value_before| descending,
 * then CUSIP), keyed by CUSIP. Head: the total portfolio values of the previous and this quarter,
 * from which the weights are computed on read (as the derivation computes them). Column 4: the split
 * factor between the two quarters, NaN for none.
 */
export const MANAGER_CHANGES: ChangeLayout = { format: 1, head: 2, columns: 5, keyBytes: 9 };
export const SPLIT_FACTOR = 4;

/**
 * A security quarter's holders and sold-out managers in its holders page's order (value_after
 * descending, then CIK), keyed by CIK. Column 4: weight after (percent of the holder's portfolio).
 */
export const SECURITY_HOLDERS: ChangeLayout = { format: 2, head: 0, columns: 5, keyBytes: 10 };
export const WEIGHT_AFTER = 4;

/**
 * Change i of a manager quarter's packed changes (MANAGER_CHANGES), its weights computed from the two
 * stored totals exactly as the derivation computes them (changes.ts's compare).
 */
export function managerChangeAt(packed: PackedChanges, i: number): PositionChange {
  const status = packed.status(i);
  const totalBefore = packed.head[0] as number;
  const totalAfter = packed.head[1] as number;
  const valueBefore = packed.column(VALUE_BEFORE)[i] as number;
  const valueAfter = packed.column(VALUE_AFTER)[i] as number;
  const factor = packed.column(SPLIT_FACTOR)[i] as number;
  return {
    cusip: packed.key(i),
    status,
    shares_before: packed.column(SHARES_BEFORE)[i] as number,
    shares_after: packed.column(SHARES_AFTER)[i] as number,
    value_before: valueBefore,
    value_after: valueAfter,
    weight_before: status !== 'new' && totalBefore > 0 ? (valueBefore / totalBefore) * 100 : 0,
    weight_after: status !== 'sold_out' && totalAfter > 0 ? (valueAfter / totalAfter) * 100 : 0,
    split_factor: Number.isNaN(factor) ? null : factor,
  };
}
