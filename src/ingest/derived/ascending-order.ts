/**
 * A column's non-null values in ascending order together with the row each came from, by an LSD
 * radix sort of the values' bits carrying the row along: one stable O(n) pass per byte, and a byte
 * every value shares (the low mantissa bytes of whole numbers, the exponent byte of a narrow range)
 * is skipped. Measured on the financial aggregates (174 fields × ~6,300 banks a report date): ~55 ms
 * a date against ~150 ms for a typed-array sort followed by a binary search per row to find it.
 */
import { requireLittleEndian } from '../../little-endian.js';

// A value's words are read through a Uint32Array over its Float64Array: low word first.
requireLittleEndian('ordering values by their bits');

/** The values ascending (-0 before 0) and, slot by slot, the row each came from (ties: row order). */
export interface AscendingColumn {
  readonly values: Float64Array;
  readonly rows: Int32Array;
}

const SIGN = 0x80000000;

/** `column`'s values other than NaN (which stands for null), ascending, with their rows. */
export function ascendingWithRows(column: Float64Array): AscendingColumn {
  let n = 0;
  for (let r = 0; r < column.length; r++) if (!Number.isNaN(column[r]!)) n++;
  // Each value's 64 bits as two 32-bit words (little-endian: low word first).
  let keys = new Uint32Array(n * 2);
  let rows = new Int32Array(n);
  const asFloats = new Float64Array(keys.buffer);
  n = 0;
  for (let r = 0; r < column.length; r++) {
    const value = column[r]!;
    if (Number.isNaN(value)) continue;
    asFloats[n] = value;
    rows[n++] = r;
  }
  // Bits that order as unsigned integers in the values' order (negatives inverted, positives
  // signed), and every pass's byte counts from them in the same read (pass p's at [256 p, 256 p +
  // 256)): a pass over a byte every value shares is skipped, and most are for whole amounts.
  const counts = new Int32Array(8 * 256);
  for (let i = 0; i < n; i++) {
    let low = keys[2 * i]!;
    let high = keys[2 * i + 1]!;
    if (high & SIGN) {
      high = ~high >>> 0;
      low = ~low >>> 0;
      keys[2 * i] = low;
    } else high = (high | SIGN) >>> 0;
    keys[2 * i + 1] = high;
    counts[low & 255]!++;
    counts[256 + ((low >>> 8) & 255)]!++;
    counts[512 + ((low >>> 16) & 255)]!++;
    counts[768 + (low >>> 24)]!++;
    counts[1024 + (high & 255)]!++;
    counts[1280 + ((high >>> 8) & 255)]!++;
    counts[1536 + ((high >>> 16) & 255)]!++;
    counts[1792 + (high >>> 24)]!++;
  }
  let spareKeys = new Uint32Array(n * 2);
  let spareRows = new Int32Array(n);
  for (let pass = 0; pass < 8; pass++) {
    const word = pass >> 2;
    const shift = (pass & 3) * 8;
    const starts = counts.subarray(256 * pass, 256 * pass + 256);
    if (starts.includes(n)) continue; // every value has this byte: the order stays as it is
    let sum = 0;
    for (let digit = 0; digit < 256; digit++) {
      const count = starts[digit]!;
      starts[digit] = sum;
      sum += count;
    }
    for (let i = 0; i < n; i++) {
      const low = keys[2 * i]!;
      const high = keys[2 * i + 1]!;
      const at = starts[((word === 0 ? low : high) >>> shift) & 255]!++;
      spareKeys[2 * at] = low;
      spareKeys[2 * at + 1] = high;
      spareRows[at] = rows[i]!;
    }
    [keys, spareKeys] = [spareKeys, keys];
    [rows, spareRows] = [spareRows, rows];
  }
  for (let i = 0; i < n; i++) {
    const high = keys[2 * i + 1]!;
    if (high & SIGN) keys[2 * i + 1] = high & ~SIGN;
    else {
      keys[2 * i + 1] = ~high;
      keys[2 * i] = ~keys[2 * i]!;
    }
  }
  return { values: new Float64Array(keys.buffer, 0, n), rows };
}
