/**
 * INFOTABLE rows read straight from the inflated bytes. Decoding each line and splitting it made
 * ~15 strings a row (3.8 million rows in a data set), most of them digits parsed and dropped at once.
 * Here a line is one pass over its bytes for the tabs; numbers are read from the digits' bytes, the
 * coded fields (SSHPRNAMTTYPE, PUTCALL, INVESTMENTDISCRETION) are matched as bytes, and only the
 * texts kept become strings.
 *
 * This reads *plain* rows only: every number 1–15 ASCII digits (or empty where it may be), the
 * CUSIP nine of [0-9A-Z], and each coded field one of the spellings listed below. It gives up on
 * any other row (returns false), and the caller reads that row's decoded text by the string path
 * (normaliseInfoRow), which so decides every case this does not: trimming, thousands separators,
 * lower case, bad values and their messages. On a plain row the two agree field for field
 * (test/ingest/infotable-bytes.test.ts compares them over real-shaped and mutated rows).
 */
import type { InfoTableRow, PlainInfoRow } from './types.js';
import { textOrNull } from './values.js';

/** Where each column is in a row (−1 when the data set lacks it). */
export interface InfoTableColumns {
  accession: number;
  issuer: number;
  title: number;
  cusip: number;
  figi: number;
  value: number;
  shares: number;
  type: number;
  putCall: number;
  discretion: number;
  other: number;
  sole: number;
  shared: number;
  none: number;
}

/** One line's fields: field k is bytes [starts[k], ends[k]) for k < count. */
export class LineFields {
  bytes: Buffer = Buffer.alloc(0);
  count = 0;
  readonly starts: Int32Array;
  readonly ends: Int32Array;

  constructor(readonly capacity: number) {
    this.starts = new Int32Array(capacity);
    this.ends = new Int32Array(capacity);
  }

  /** Splits bytes [start, end) at tabs; false when the line has more fields than `capacity`. */
  split(bytes: Buffer, start: number, end: number): boolean {
    this.bytes = bytes;
    let k = 0;
    this.starts[0] = start;
    for (let i = start; i < end; i++) {
      if (bytes[i] !== 9) continue;
      this.ends[k] = i;
      if (++k === this.capacity) return false;
      this.starts[k] = i + 1;
    }
    this.ends[k] = end;
    this.count = k + 1;
    return true;
  }

  /** Field k's length; −1 when the row has no field k (or the data set no such column). */
  length(k: number): number {
    return k >= 0 && k < this.count ? (this.ends[k] as number) - (this.starts[k] as number) : -1;
  }

  /** Where field k begins (a field the row has). */
  startOf(k: number): number {
    return this.starts[k] as number;
  }

  /** Whether textOrNull reads field k as null (empty, missing or only whitespace). */
  isBlank(k: number): boolean {
    const length = this.length(k);
    if (length <= 0) return true;
    // A first byte of 0x21–0x7F is a character trimming keeps.
    const first = this.bytes[this.starts[k] as number] as number;
    return first > 0x20 && first < 0x80 ? false : this.textOrNull(k) === null;
  }

  /** Field k decoded (UTF-8); undefined where the string path's row[k] is. */
  text(k: number): string | undefined {
    if (k < 0 || k >= this.count) return undefined;
    return this.bytes.toString('utf8', this.starts[k], this.ends[k]);
  }

  /** textOrNull of field k, without decoding an empty one. */
  textOrNull(k: number): string | null {
    return this.length(k) > 0 ? textOrNull(this.text(k)) : null;
  }

  /** Whether field k's bytes are `ascii`'s characters. */
  is(k: number, ascii: string): boolean {
    if (this.length(k) !== ascii.length) return false;
    const at = this.starts[k] as number;
    for (let i = 0; i < ascii.length; i++) if (this.bytes[at + i] !== ascii.charCodeAt(i)) return false;
    return true;
  }

  /** Whether field k's bytes equal `other`'s. */
  equals(k: number, other: Uint8Array): boolean {
    if (this.length(k) !== other.length) return false;
    const at = this.starts[k] as number;
    for (let i = 0; i < other.length; i++) if (this.bytes[at + i] !== other[i]) return false;
    return true;
  }

  /** Field k's bytes, copied (Buffer's own slice would be a view of the chunk). */
  copy(k: number): Uint8Array {
    return Uint8Array.prototype.slice.call(this.bytes, this.starts[k], this.ends[k]);
  }

  /**
   * Field k as a whole number when it is 1–15 ASCII digits (exact in a double, as parseWholeNumber's
   * own fast path); null when empty or missing, if `nullable`; NaN for anything else.
   */
  number(k: number, nullable: boolean): number | null {
    const length = this.length(k);
    if (length <= 0) return nullable ? null : Number.NaN;
    if (length > 15) return Number.NaN;
    const { bytes } = this;
    const end = this.ends[k] as number;
    let value = 0;
    for (let i = this.starts[k] as number; i < end; i++) {
      const digit = (bytes[i] as number) - 48;
      if (digit < 0 || digit > 9) return Number.NaN;
      value = value * 10 + digit;
    }
    return value;
  }

  /** Whether field k is nine of [0-9A-Z] (a CUSIP needing no normalising). */
  isCusip(k: number): boolean {
    if (this.length(k) !== 9) return false;
    const { bytes } = this;
    const at = this.starts[k] as number;
    for (let i = at; i < at + 9; i++) {
      const c = bytes[i] as number;
      if (!((c >= 48 && c <= 57) || (c >= 65 && c <= 90))) return false;
    }
    return true;
  }
}

/** A coded field's normalised value when spelt as listed: `undefined` for any other spelling. */
function coded(fields: LineFields, k: number, spellings: readonly (readonly [string, string])[]) {
  if (fields.length(k) <= 0) return null;
  for (const [spelling, value] of spellings) if (fields.is(k, spelling)) return value;
  return undefined;
}

const SHARE_TYPES = [
  ['SH', 'SH'],
  ['PRN', 'PRN'],
] as const;
const PUT_CALLS = [
  ['Put', 'PUT'],
  ['Call', 'CALL'],
  ['PUT', 'PUT'],
  ['CALL', 'CALL'],
] as const;
const DISCRETIONS = [
  ['SOLE', 'SOLE'],
  ['DFND', 'DFND'],
  ['OTR', 'OTR'],
] as const;

/**
 * Reads a plain row (all but the accession number, which the caller has checked, and the CUSIP
 * and free texts, left in `fields`) into `into`, as normaliseInfoRow would; false, with `into`
 * partly written, for a row the string path must read.
 */
export function readPlainRow(
  fields: LineFields,
  index: InfoTableColumns,
  accession: string,
  into: PlainInfoRow,
): boolean {
  const value = fields.number(index.value, false);
  const shares = fields.number(index.shares, true);
  const sole = fields.number(index.sole, true);
  const shared = fields.number(index.shared, true);
  const none = fields.number(index.none, true);
  const shareType = coded(fields, index.type, SHARE_TYPES);
  const putCall = coded(fields, index.putCall, PUT_CALLS);
  const discretion = coded(fields, index.discretion, DISCRETIONS);
  // biome-ignore format: one test per field
  if (!fields.isCusip(index.cusip) || Number.isNaN(value) || Number.isNaN(shares) || Number.isNaN(sole) || Number.isNaN(shared)
    || Number.isNaN(none) || shareType === undefined || putCall === undefined || discretion === undefined)
    return false;
  into.accession = accession;
  into.value = value as number;
  into.shares = shares;
  into.shareType = shareType;
  into.putCall = putCall;
  into.discretion = discretion;
  into.votingSole = sole;
  into.votingShared = shared;
  into.votingNone = none;
  return true;
}

/** The CUSIP and free texts of a plain row, as normaliseInfoRow reads them, into `into`. */
export function readPlainTexts(fields: LineFields, index: InfoTableColumns, into: InfoTableRow): void {
  into.cusip = fields.text(index.cusip) as string;
  into.issuer = fields.textOrNull(index.issuer);
  into.titleOfClass = fields.textOrNull(index.title);
  into.figi = fields.textOrNull(index.figi);
  into.otherManager = fields.textOrNull(index.other);
}
