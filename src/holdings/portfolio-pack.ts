/**
 * A manager quarter's positions packed into one binary value (`manager_portfolios.positions`),
 * written by the derivation in the portfolio's own order, so that a portfolio, an overlap or a
 * comparison reads one row per manager instead of thousands of `positions` rows joined to the
 * security master and sorted (the largest portfolio: ~18 ms of SQLite per request before).
 *
 * Layout, little-endian, n positions (8 + 26 n bytes):
 *   u32 n | u32 format (1) | f64 value × n (thousands of USD, as `positions.value`) | f64 shares × n
 *   | u8 code × n (share type × put/call, see CODE) | CUSIP × n (9 ASCII bytes each)
 * Order: value descending, then CUSIP, share type and put/call (null, CALL, PUT) ascending: the
 * portfolio endpoint's order.
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

const FORMAT = 1;
const HEAD = 8;
export const CUSIP_BYTES = 9;

/** Rank of a code in the order of (share type, put/call) with null first, as SQL sorts them. */
const CODE_RANK = (() => {
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

/** Packs positions (any order) into the portfolio's order. */
export function packPortfolio(positions: PositionColumns): Buffer {
  const n = positions.count;
  const order = Array.from({ length: n }, (_, i) => i);
  const cusips = order.map((i) => positions.cusip(i));
  const values = order.map((i) => positions.value(i));
  const codes = order.map((i) => positions.code(i));
  order.sort((a, b) => {
    const byValue = (values[b] as number) - (values[a] as number);
    if (byValue !== 0) return byValue;
    const x = cusips[a] as string;
    const y = cusips[b] as string;
    if (x !== y) return x < y ? -1 : 1;
    return (CODE_RANK[codes[a] as number] as number) - (CODE_RANK[codes[b] as number] as number);
  });
  const buffer = Buffer.alloc(HEAD + 26 * n);
  buffer.writeUInt32LE(n, 0);
  buffer.writeUInt32LE(FORMAT, 4);
  const sharesAt = HEAD + 8 * n;
  const codesAt = HEAD + 16 * n;
  const cusipsAt = HEAD + 17 * n;
  order.forEach((from, to) => {
    buffer.writeDoubleLE(values[from] as number, HEAD + 8 * to);
    buffer.writeDoubleLE(positions.shares(from), sharesAt + 8 * to);
    buffer[codesAt + to] = codes[from] as number;
    const cusip = cusips[from] as string;
    if (cusip.length !== CUSIP_BYTES) throw new Error(`CUSIP ${cusip} is not 9 characters`);
    buffer.write(cusip, cusipsAt + CUSIP_BYTES * to, CUSIP_BYTES, 'latin1');
  });
  return buffer;
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

/** The columns of a packed portfolio (`bytes`: the stored value, as either driver returns it). */
export function unpackPortfolio(bytes: Uint8Array): PackedPortfolio {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const n = view.getUint32(0, true);
  const format = view.getUint32(4, true);
  if (format !== FORMAT || bytes.byteLength !== HEAD + 26 * n)
    throw new Error(
      `not a packed portfolio (format ${format}, ${bytes.byteLength} bytes for ${n} positions)`,
    );
  // Float64Array needs an 8-byte aligned start: copy the numbers out when the bytes are not aligned.
  const numbers =
    (bytes.byteOffset + HEAD) % 8 === 0
      ? new Float64Array(bytes.buffer, bytes.byteOffset + HEAD, 2 * n)
      : new Float64Array(bytes.buffer.slice(bytes.byteOffset + HEAD, bytes.byteOffset + HEAD + 16 * n));
  const cusips = Buffer.from(bytes.buffer, bytes.byteOffset + HEAD + 17 * n, CUSIP_BYTES * n);
  return {
    count: n,
    values: numbers.subarray(0, n),
    shares: numbers.subarray(n, 2 * n),
    codes: new Uint8Array(bytes.buffer, bytes.byteOffset + HEAD + 16 * n, n),
    cusipBytes: cusips,
    cusip: (i) => cusips.toString('latin1', CUSIP_BYTES * i, CUSIP_BYTES * i + CUSIP_BYTES),
  };
}
