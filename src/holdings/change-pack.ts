/**
 * Quarter-over-quarter changes packed into binary values (migration 0014): one per manager quarter
 * (`changes_by_manager`, in the changes page's order) and one per security quarter
 * (`holders_by_security`, in the holders page's order), written by the derivation instead of
 * millions of `position_changes` rows with two indexes (three copies of every change).
 *
 * Layout, little-endian, n rows, h head values, k number columns, keys of w ASCII bytes:
 *   u32 n | u32 format | u32 constants | u32 0 | f64 head × h | column × k | u8 status × n
 *   | key × n (w bytes each)
 * where column c is f64 × n, or one f64 when bit c of `constants` is set: every row has that value
 * (a manager's first quarter: nothing before; most quarters: no split factor). Numbers are stored as
 * computed (no rounding); a status is its index in CHANGE_STATUSES. Values written before
 * 2026-11-28 have no `constants` word and every column in full (the layout's `fullFormat`); both are
 * read.
 */
import { requireLittleEndian } from '../little-endian.js';
import { CHANGE_STATUSES, type ChangeStatus, type PositionChange } from './tables.js';

/** u32 n | u32 format | u32 constants | u32 0: the numbers after it start 8-byte aligned. */
const HEAD = 16;
/** The header of `fullFormat` values: u32 n | u32 format. */
const FULL_HEAD = 8;

requireLittleEndian('packed changes');

/** What one packed value holds: its format numbers, head values, number columns and key width. */
export interface ChangeLayout {
  readonly format: number;
  /** The format of values written before constant columns were stored once. */
  readonly fullFormat: number;
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

/** Whether every value of the column is the same (NaN as NaN, −0 apart from 0). */
function isConstant(column: Float64Array): boolean {
  const first = column[0];
  for (let i = 1; i < column.length; i++) if (!Object.is(column[i], first)) return false;
  return true;
}

export function packChanges(layout: ChangeLayout, rows: ChangeRows): Buffer {
  const n = rows.count;
  const all = new Float64Array(layout.columns * n);
  let constants = 0;
  let doubles = layout.head;
  for (let c = 0; c < layout.columns; c++) {
    const column = all.subarray(n * c, n * (c + 1));
    rows.numbers(c, column);
    const constant = n > 1 && isConstant(column);
    if (constant) constants |= 1 << c;
    doubles += constant ? 1 : n;
  }
  // Its own ArrayBuffer, so the numbers start 8-byte aligned and are written through a Float64Array
  // (this platform's byte order: little-endian, as unpackChanges and portfolio-pack.ts read them).
  const statusesAt = HEAD + 8 * doubles;
  const buffer = Buffer.from(new ArrayBuffer(statusesAt + n * (1 + layout.keyBytes)));
  buffer.writeUInt32LE(n, 0);
  buffer.writeUInt32LE(layout.format, 4);
  buffer.writeUInt32LE(constants, 8);
  const numbers = new Float64Array(buffer.buffer, HEAD, doubles);
  for (let h = 0; h < layout.head; h++) numbers[h] = rows.head[h] as number;
  let at = layout.head;
  for (let c = 0; c < layout.columns; c++) {
    const column = all.subarray(n * c, n * (c + 1));
    const stored = constants & (1 << c) ? column.subarray(0, 1) : column;
    numbers.set(stored, at);
    at += stored.length;
  }
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

/** `doubles` f64 from `at` of `bytes`, copied out when they do not start 8-byte aligned. */
function float64s(bytes: Uint8Array, at: number, doubles: number): Float64Array {
  const start = bytes.byteOffset + at;
  return start % 8 === 0
    ? new Float64Array(bytes.buffer, start, doubles)
    : new Float64Array(bytes.buffer.slice(start, start + 8 * doubles));
}

/** The columns of a packed value (`bytes`: the stored value, as either driver returns it). */
export function unpackChanges(layout: ChangeLayout, bytes: Uint8Array): PackedChanges {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const n = view.getUint32(0, true);
  const format = view.getUint32(4, true);
  const full = format === layout.fullFormat;
  const constants = full || bytes.byteLength < HEAD ? 0 : view.getUint32(8, true);
  const head = full ? FULL_HEAD : HEAD;
  let doubles = layout.head;
  const starts: number[] = [];
  for (let c = 0; c < layout.columns; c++) {
    starts.push(doubles);
    doubles += constants & (1 << c) ? 1 : n;
  }
  const statusesAt = head + 8 * doubles;
  if ((format !== layout.format && !full) || bytes.byteLength !== statusesAt + n * (1 + layout.keyBytes))
    throw new Error(
      `not packed changes of format ${layout.format} (format ${format}, ${bytes.byteLength} bytes for ${n} rows)`,
    );
  const numbers = float64s(bytes, head, doubles);
  // A constant column is filled out once, when first asked for.
  const columns: Float64Array[] = [];
  const column = (c: number): Float64Array => {
    let values = columns[c];
    if (!values) {
      const at = starts[c] as number;
      values =
        constants & (1 << c) ? new Float64Array(n).fill(numbers[at] as number) : numbers.subarray(at, at + n);
      columns[c] = values;
    }
    return values;
  };
  const statuses = new Uint8Array(bytes.buffer, bytes.byteOffset + statusesAt, n);
  const keys = Buffer.from(bytes.buffer, bytes.byteOffset + statusesAt + n, n * layout.keyBytes);
  const w = layout.keyBytes;
  return {
    count: n,
    head: numbers.subarray(0, layout.head),
    column,
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
export const MANAGER_CHANGES: ChangeLayout = { format: 3, fullFormat: 1, head: 2, columns: 5, keyBytes: 9 };
export const SPLIT_FACTOR = 4;

/**
 * A security quarter's holders and sold-out managers in its holders page's order (value_after
 * descending, then CIK), keyed by CIK. Column 4: weight after (percent of the holder's portfolio).
 */
export const SECURITY_HOLDERS: ChangeLayout = { format: 4, fullFormat: 2, head: 0, columns: 5, keyBytes: 10 };
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
