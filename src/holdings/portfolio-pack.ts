/**
 * Positions packed into one binary value, in page order, so that a page reads one row instead of
 * thousands of `positions` rows joined and sorted (the largest portfolio: ~18 ms of SQLite per
 * request before). Two layouts, one per key:
 *
 * - PORTFOLIO (`manager_portfolios.positions`): a manager quarter's positions, keyed by CUSIP;
 * - SECURITY_POSITIONS (`security_positions.positions`): a security quarter's positions of every
 *   manager and every type, keyed by CIK (the holders list of /api/holdings?cusip=…).
 *
 * Layout, little-endian, n positions, key k bytes (8 + (17 + k) n bytes):
 *   u32 n | u32 format | f64 value × n (thousands of USD, unrounded) | f64 shares × n
 *   | u8 code × n (share type × put/call, see codeOf) | key × n (k ASCII bytes each)
 * Order: value descending, then key, share type and put/call (null, CALL, PUT) ascending: the
 * order of the portfolio and of the holders list.
 */
import { requireLittleEndian } from '../little-endian.js';

requireLittleEndian('packed portfolios');

export const SHARE_TYPES = ['SH', 'PRN'] as const;
export const PUT_CALLS = [null, 'PUT', 'CALL'] as const;

/** share type × put/call in one byte. */
export function codeOf(shareType: string, putCall: string | null): number {
  const s = SHARE_TYPES.indexOf(shareType as 'SH');
  const p = PUT_CALLS.indexOf(putCall as null);
  if (s < 0 || p < 0) throw new Error(`unexpected share type ${shareType} / put-call ${putCall}`);
  return s * PUT_CALLS.length + p;
}

export const shareTypeOf = (code: number) => SHARE_TYPES[Math.floor(code / PUT_CALLS.length)] as string;
export const putCallOf = (code: number) => PUT_CALLS[code % PUT_CALLS.length] as string | null;
/** Equity = SH without put/call. */
export const isEquityCode = (code: number) => code === 0;

const HEAD = 8;
export const CUSIP_BYTES = 9;
const CIK_BYTES = 10;

/** What a packed value is keyed by; `format` tells the layouts apart when read. */
export interface PackLayout {
  readonly format: number;
  readonly keyBytes: number;
  readonly what: string;
}

export const PORTFOLIO: PackLayout = { format: 1, keyBytes: CUSIP_BYTES, what: 'packed portfolio' };
export const SECURITY_POSITIONS: PackLayout = {
  format: 2,
  keyBytes: CIK_BYTES,
  what: "packed security's positions",
};

/** Rank of a code in the order of (share type, put/call) with null first, as SQL sorts them. */
export const CODE_RANK = (() => {
  const codes = SHARE_TYPES.flatMap((s) => PUT_CALLS.map((p) => ({ code: codeOf(s, p), s, p: p ?? '' })));
  codes.sort((a, b) => (a.s < b.s ? -1 : a.s > b.s ? 1 : a.p < b.p ? -1 : a.p > b.p ? 1 : 0));
  const rank = new Uint8Array(codes.length);
  codes.forEach(({ code }, i) => {
    rank[code] = i;
  });
  return rank;
})();

/** Positions given column by column (the derivation's two shapes of them). */
export interface PositionColumns {
  readonly count: number;
  cusip(i: number): string;
  code(i: number): number;
  value(i: number): number;
  shares(i: number): number;
}

/** Positions given column by column, with the layout's key (a CUSIP or a CIK). */
export interface KeyedPositions {
  readonly count: number;
  key(i: number): string;
  code(i: number): number;
  value(i: number): number;
  shares(i: number): number;
}

/** Compares positions i and j in pack order, given their values, keys and codes. */
export function packOrder(values: ArrayLike<number>, keys: ArrayLike<string>, codes: ArrayLike<number>) {
  return (a: number, b: number): number => {
    const byValue = (values[b] as number) - (values[a] as number);
    if (byValue !== 0) return byValue;
    const x = keys[a] as string;
    const y = keys[b] as string;
    if (x !== y) return x < y ? -1 : 1;
    return (CODE_RANK[codes[a] as number] as number) - (CODE_RANK[codes[b] as number] as number);
  };
}

/** A code's place in pack order among positions of the same value and key. */
export const codeRank = (code: number) => CODE_RANK[code] as number;

/** Writes the head of a packed value of `n` positions; returns it with its numbers' view. */
function packedValue(layout: PackLayout, n: number): { buffer: Buffer; numbers: Float64Array } {
  const buffer = Buffer.alloc(HEAD + (17 + layout.keyBytes) * n);
  buffer.writeUInt32LE(n, 0);
  buffer.writeUInt32LE(layout.format, 4);
  // Buffer.alloc never hands out a pooled slice: the numbers start 8-byte aligned.
  return { buffer, numbers: new Float64Array(buffer.buffer, buffer.byteOffset + HEAD, 2 * n) };
}

/** Packs positions (any order) into the layout's order, comparing their keys as texts. */
export function packPositions(layout: PackLayout, positions: KeyedPositions): Buffer {
  const n = positions.count;
  const k = layout.keyBytes;
  const order = Array.from({ length: n }, (_, i) => i);
  const keys = order.map((i) => positions.key(i));
  const values = order.map((i) => positions.value(i));
  const codes = order.map((i) => positions.code(i));
  order.sort(packOrder(values, keys, codes));
  const { buffer, numbers } = packedValue(layout, n);
  const codesAt = HEAD + 16 * n;
  const keysAt = HEAD + 17 * n;
  for (let to = 0; to < n; to++) {
    const from = order[to] as number;
    numbers[to] = values[from] as number;
    numbers[n + to] = positions.shares(from);
    buffer[codesAt + to] = codes[from] as number;
    const key = keys[from] as string;
    if (key.length !== k) throw new Error(`${layout.what}: key ${key} is not ${k} characters`);
    buffer.write(key, keysAt + k * to, k, 'latin1');
  }
  return buffer;
}

/**
 * Positions as typed columns: position i's numbers and code at index i, its key's bytes at
 * `keyBytes × keyOf[i]` of `keys` (at `keyBytes × i` when `keyOf` is null).
 */
export interface PositionArrays {
  readonly values: Float64Array;
  readonly shares: Float64Array;
  readonly codes: Uint8Array;
  readonly keys: Uint8Array;
  readonly keyOf: Uint32Array | null;
}

/**
 * Packs the positions `order` lists, in that order: the caller sorted them into the layout's order
 * by cheaper means than comparing keys as texts. No string and no object per position.
 */
export function packInOrder(layout: PackLayout, order: Uint32Array, columns: PositionArrays): Buffer {
  const n = order.length;
  const k = layout.keyBytes;
  const { values, shares, codes, keys, keyOf } = columns;
  const { buffer, numbers } = packedValue(layout, n);
  const codesAt = HEAD + 16 * n;
  for (let to = 0, keyAt = HEAD + 17 * n; to < n; to++, keyAt += k) {
    const from = order[to] as number;
    numbers[to] = values[from] as number;
    numbers[n + to] = shares[from] as number;
    buffer[codesAt + to] = codes[from] as number;
    const key = k * (keyOf === null ? from : (keyOf[from] as number));
    for (let b = 0; b < k; b++) buffer[keyAt + b] = keys[key + b] as number;
  }
  return buffer;
}

/** Packs a manager quarter's positions (any order) into the portfolio's order. */
export const packPortfolio = (positions: PositionColumns): Buffer =>
  packPositions(PORTFOLIO, { ...positions, key: (i) => positions.cusip(i) });

/** Packed positions, read: columns in pack order. */
export interface PackedPositions {
  readonly count: number;
  readonly values: Float64Array;
  readonly shares: Float64Array;
  readonly codes: Uint8Array;
  /** The keys' bytes: position i's at `keyBytes * i`. */
  readonly keys: Buffer;
  key(i: number): string;
}

/** The columns of a packed value (`bytes`: the stored value, as either driver returns it). */
export function unpackPositions(layout: PackLayout, bytes: Uint8Array): PackedPositions {
  const k = layout.keyBytes;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const n = view.getUint32(0, true);
  const format = view.getUint32(4, true);
  if (format !== layout.format || bytes.byteLength !== HEAD + (17 + k) * n)
    throw new Error(`not a ${layout.what} (format ${format}, ${bytes.byteLength} bytes for ${n} positions)`);
  // Float64Array needs an 8-byte aligned start: copy the numbers out when the bytes are not aligned.
  const numbers =
    (bytes.byteOffset + HEAD) % 8 === 0
      ? new Float64Array(bytes.buffer, bytes.byteOffset + HEAD, 2 * n)
      : new Float64Array(bytes.buffer.slice(bytes.byteOffset + HEAD, bytes.byteOffset + HEAD + 16 * n));
  const keys = Buffer.from(bytes.buffer, bytes.byteOffset + HEAD + 17 * n, k * n);
  return {
    count: n,
    values: numbers.subarray(0, n),
    shares: numbers.subarray(n, 2 * n),
    codes: new Uint8Array(bytes.buffer, bytes.byteOffset + HEAD + 16 * n, n),
    keys,
    key: (i) => keys.toString('latin1', k * i, k * i + k),
  };
}

/** A packed portfolio, read: columns in the portfolio's order. */
export interface PackedPortfolio {
  readonly count: number;
  readonly values: Float64Array;
  readonly shares: Float64Array;
  readonly codes: Uint8Array;
  /** The CUSIPs' bytes: position i's at `CUSIP_BYTES * i` (read in place by the catalogue). */
  readonly cusipBytes: Uint8Array;
  cusip(i: number): string;
}

export function unpackPortfolio(bytes: Uint8Array): PackedPortfolio {
  const { keys, key, ...columns } = unpackPositions(PORTFOLIO, bytes);
  return { ...columns, cusipBytes: keys, cusip: key };
}
