/**
 * The binary form of a packed information-table record (`info_tables_13f.rows`, migration 0017):
 * every value exactly as filed, in ~55 bytes a row where its JSON text took ~85. The rows are the
 * largest thing a 13F load writes (a data set's 3.8 million rows: ~315 MB of JSON), and SQLite writes
 * them three times (staging, the swap's copy through the WAL, the checkpoint).
 *
 * A record is the byte FORMAT, then its rows back to back (the count is the record's `row_count`),
 * so a record split across parse batches is encoded by appending. A row, in INFO_ROW_FIELDS order:
 *   CUSIP: 9 ASCII bytes
 *   share type × put/call: one byte, codeOf's 0–5 when both are as the parser normalises them
 *     (SH/PRN, null/PUT/CALL); TEXT_CODE, then both as texts, for anything else (e.g. `Call`)
 *   VALUE, SSHPRNAMT: numbers
 *   NAMEOFISSUER, TITLEOFCLASS: texts
 *   INVESTMENTDISCRETION: one byte, 0 null, 1–3 SOLE/DFND/OTR, TEXT_CODE then a text for others
 *   VOTING AUTHORITY sole, shared, none: numbers
 * A number is an unsigned LEB128 varint v: 0 null; 1: a float64 (little-endian) follows (negative,
 * fractional or beyond 2^52); otherwise the whole number v − 2. A text is a varint (UTF-8 length + 1;
 * 0 null), then its UTF-8 bytes (texts come from decoded files, so never hold a lone surrogate,
 * which UTF-8 cannot carry).
 */
import {
  codeOf,
  PUT_CALLS,
  putCallOf,
  SHARE_TYPES,
  shareTypeOf,
} from '../../../../holdings/portfolio-pack.js';
import type { RowFields } from '../row-fields.js';

// biome-ignore format: field list
export const INFO_ROW_FIELDS = ['cusip', 'issuer', 'title_of_class', 'value', 'shares', 'share_type', 'put_call',
  'investment_discretion', 'voting_sole', 'voting_shared', 'voting_none'] as const;

/** One row's values in INFO_ROW_FIELDS order. */
export type InfoRowFields = [
  cusip: string,
  issuer: string,
  titleOfClass: string | null,
  value: number,
  shares: number,
  shareType: string,
  putCall: string | null,
  discretion: string | null,
  votingSole: number | null,
  votingShared: number | null,
  votingNone: number | null,
];

export const FORMAT = 1;
const TEXT_CODE = 255;
const DISCRETIONS = [null, 'SOLE', 'DFND', 'OTR'] as const;
const CUSIP_BYTES = 9;
const LARGEST_WHOLE = 2 ** 52;

const varintLength = (v: number) => (v < 0x80 ? 1 : v < 0x4000 ? 2 : v < 0x200000 ? 3 : 4);
/**
 * Bytes a row is expected to take, when the record's row count is known up front: ~55 on average
 * (the header), so most records fit their first buffer and are never grown. Growing by doubling
 * copied each record ~1.5 times over into fresh memory: ~0.3 s of a 3.8 M-row load's loading thread.
 */
const EXPECTED_ROW_BYTES = 64;

/** DISCRETIONS' index of the ASCII text of `length` bytes at `at`, −1 for any other text. */
function discretionCode(texts: Uint8Array, at: number, length: number): number {
  for (let d = 1; d < DISCRETIONS.length; d++) {
    const name = DISCRETIONS[d] as string;
    if (name.length !== length) continue;
    let k = 0;
    while (k < length && texts[at + k] === name.charCodeAt(k)) k++;
    if (k === length) return d;
  }
  return -1;
}

/** Appends rows to one record's bytes. */
export class InfoRowEncoder {
  private bytes: Buffer;
  private at = 1;
  private readonly float = new Float64Array(1);
  private readonly floatBytes = new Uint8Array(this.float.buffer);
  count = 0;

  /** Bytes written so far (FORMAT included). */
  get length(): number {
    return this.at;
  }

  /** `expectedRows`: the rows the record will hold, when known (its first buffer is sized for them). */
  constructor(expectedRows = 0) {
    this.bytes = Buffer.allocUnsafe(expectedRows > 0 ? 1 + EXPECTED_ROW_BYTES * expectedRows : 4096);
    this.bytes[0] = FORMAT;
  }

  /**
   * Row `i` of a parsed batch (infotable-parse.ts), its texts from `textAt` in the batch's texts;
   * returns where the next row's texts begin. The texts are copied as the UTF-8 bytes they are.
   */
  addParsed(fields: RowFields, i: number, textAt: number): number {
    const { cusips, texts, textLengths, voting } = fields;
    this.reserve(CUSIP_BYTES + 1);
    for (let k = CUSIP_BYTES * i; k < CUSIP_BYTES * (i + 1); k++) this.bytes[this.at++] = cusips[k] as number;
    this.bytes[this.at++] = fields.codes[i] as number;
    this.number(fields.values[i] as number);
    this.number(fields.shares[i] as number);
    let at = this.textBytes(texts, textAt, textLengths[3 * i] as number);
    at = this.textBytes(texts, at, textLengths[3 * i + 1] as number);
    const length = textLengths[3 * i + 2] as number;
    const d = length < 0 ? 0 : discretionCode(texts, at, length);
    if (d >= 0) {
      this.byte(d);
      at += Math.max(length, 0);
    } else {
      this.byte(TEXT_CODE);
      at = this.textBytes(texts, at, length);
    }
    for (let k = 3 * i; k < 3 * i + 3; k++) {
      const vote = voting[k] as number;
      this.number(Number.isNaN(vote) ? null : vote);
    }
    this.count += 1;
    return at;
  }

  /** A row as stored fields (any share type and put/call text). */
  addFields(row: InfoRowFields): void {
    const [cusip, issuer, title, value, shares, shareType, putCall, discretion, sole, shared, none] = row;
    this.cusip(cusip);
    if (SHARE_TYPES.includes(shareType as 'SH') && PUT_CALLS.includes(putCall as null)) {
      this.byte(codeOf(shareType, putCall));
    } else {
      this.byte(TEXT_CODE);
      this.text(shareType);
      this.text(putCall);
    }
    this.rest(value, shares, issuer, title, discretion, sole, shared, none);
  }

  private cusip(cusip: string): void {
    this.reserve(CUSIP_BYTES);
    if (cusip.length !== CUSIP_BYTES) throw new Error(`CUSIP ${JSON.stringify(cusip)} is not 9 characters`);
    for (let i = 0; i < CUSIP_BYTES; i++) {
      const c = cusip.charCodeAt(i);
      if (c >= 0x80) throw new Error(`CUSIP ${JSON.stringify(cusip)} is not ASCII`);
      this.bytes[this.at++] = c;
    }
  }

  private rest(
    value: number,
    shares: number,
    issuer: string,
    title: string | null,
    discretion: string | null,
    votingSole: number | null,
    votingShared: number | null,
    votingNone: number | null,
  ): void {
    this.number(value);
    this.number(shares);
    this.text(issuer);
    this.text(title);
    const d = DISCRETIONS.indexOf(discretion as null);
    if (d >= 0) this.byte(d);
    else {
      this.byte(TEXT_CODE);
      this.text(discretion);
    }
    this.number(votingSole);
    this.number(votingShared);
    this.number(votingNone);
    this.count += 1;
  }

  /**
   * Appends `rows` rows encoded elsewhere: a fragment of encodeRecords, whose first byte is the
   * FORMAT that begins a record (the rows follow it).
   */
  addEncoded(fragment: Uint8Array, rows: number): void {
    if (fragment[0] !== FORMAT)
      throw new Error('an encoded information-table fragment must begin with FORMAT');
    this.reserve(fragment.length - 1);
    this.bytes.set(fragment.subarray(1), this.at);
    this.at += fragment.length - 1;
    this.count += rows;
  }

  /** Begins the next fragment of encodeRecords' buffer with its FORMAT byte. */
  beginFragment(): void {
    this.byte(FORMAT);
  }

  /** The record's bytes (a view of this encoder's memory: encode nothing more afterwards). */
  finish(): Buffer {
    return this.bytes.subarray(0, this.at);
  }

  private reserve(bytes: number): void {
    if (this.at + bytes <= this.bytes.length) return;
    const grown = Buffer.allocUnsafe(Math.max(2 * this.bytes.length, this.at + bytes));
    this.bytes.copy(grown, 0, 0, this.at);
    this.bytes = grown;
  }

  private byte(b: number): void {
    this.reserve(1);
    this.bytes[this.at++] = b;
  }

  private varint(v: number): void {
    this.reserve(8);
    while (v >= 0x80) {
      this.bytes[this.at++] = (v % 0x80) | 0x80;
      v = Math.floor(v / 0x80);
    }
    this.bytes[this.at++] = v;
  }

  private number(n: number | null): void {
    if (n === null) this.byte(0);
    else if (typeof n !== 'number')
      throw new Error(`information-table number expected, got ${JSON.stringify(n)}`);
    else if (Number.isInteger(n) && n >= 0 && n <= LARGEST_WHOLE) this.varint(n + 2);
    else this.float64(n);
  }

  private float64(n: number): void {
    this.reserve(9);
    this.bytes[this.at++] = 1;
    this.float[0] = n;
    this.bytes.set(this.floatBytes, this.at);
    this.at += 8;
  }

  /** A text given as its UTF-8 bytes (`length` −1: null); returns where the bytes end. */
  private textBytes(texts: Uint8Array, at: number, length: number): number {
    if (length < 0) {
      this.byte(0);
      return at;
    }
    this.varint(length + 1);
    this.reserve(length);
    for (let k = at; k < at + length; k++) this.bytes[this.at++] = texts[k] as number;
    return at + length;
  }

  private text(s: string | null): void {
    if (s === null) {
      this.byte(0);
      return;
    }
    if (typeof s !== 'string') throw new Error(`information-table text expected, got ${JSON.stringify(s)}`);
    const n = s.length;
    // Room for the longest varint and the longest UTF-8 form at once: the characters are written
    // past `at` before the varint, and a growth inside varint() would copy only up to `at`.
    this.reserve(8 + 3 * n);
    // Nearly every text filed is ASCII: its bytes are its characters, written here without a call
    // into the encoder; the first other character sends the whole text through UTF-8.
    const head = varintLength(n + 1);
    let p = this.at + head;
    for (let i = 0; i < n; i++) {
      const c = s.charCodeAt(i);
      if (c >= 0x80) {
        this.varint(Buffer.byteLength(s, 'utf8') + 1);
        this.at += this.bytes.write(s, this.at, 'utf8');
        return;
      }
      this.bytes[p++] = c;
    }
    this.varint(n + 1);
    this.at = p;
  }
}

/** The bytes of row `i`'s texts in a parsed batch's `texts` (where the next row's begin, from its). */
export function rowTextBytes(fields: RowFields, i: number): number {
  const lengths = fields.textLengths;
  return (
    Math.max(0, lengths[3 * i] as number) +
    Math.max(0, lengths[3 * i + 1] as number) +
    Math.max(0, lengths[3 * i + 2] as number)
  );
}

/**
 * A parsed batch's records encoded in one buffer (by the parsing worker, when the loading thread is
 * behind: infotable-worker.ts). Record j's fragment is `bytes[ends[j − 1] … ends[j])` (from 0 for
 * the first): the FORMAT byte, then its rows of this batch. A record held whole by one batch is
 * its fragment as it is; one spanning batches is its fragments' rows appended (addEncoded).
 */
export interface EncodedRecords {
  bytes: Uint8Array;
  ends: Uint32Array;
}

/** The records of a parsed batch (`rowsPerRecord`, in order), encoded as InfoRowEncoder does. */
export function encodeRecords(fields: RowFields, rowsPerRecord: readonly number[]): EncodedRecords {
  const ends = new Uint32Array(rowsPerRecord.length);
  const encoder = new InfoRowEncoder(fields.codes.length);
  let row = 0;
  let textAt = 0;
  rowsPerRecord.forEach((rows, j) => {
    if (j > 0) encoder.beginFragment();
    for (let k = 0; k < rows; k++) textAt = encoder.addParsed(fields, row++, textAt);
    ends[j] = encoder.length;
  });
  // A copy the exact size, owning its memory: the worker moves it to the loading thread.
  return { bytes: new Uint8Array(encoder.finish()), ends };
}

/** The rows of a record in the binary form (`bytes`: as either driver returns it). */
export function decodeInfoRows(bytes: Uint8Array): InfoRowFields[] {
  // A string is a JSON record a release before migration 0017 wrote.
  const buffer =
    bytes instanceof Uint8Array ? Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) : null;
  if (buffer?.[0] !== FORMAT) {
    throw new Error('information-table record in an unknown format: run `regdata migrate`');
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let at = 1;
  const varint = (): number => {
    let v = 0;
    let scale = 1;
    for (;;) {
      const b = buffer[at++];
      if (b === undefined) throw new Error('information-table record cut short');
      v += (b & 0x7f) * scale;
      if (b < 0x80) return v;
      scale *= 0x80;
    }
  };
  const number = (): number | null => {
    const v = varint();
    if (v === 0) return null;
    if (v > 1) return v - 2;
    const n = view.getFloat64(at, true);
    at += 8;
    return n;
  };
  const text = (): string | null => {
    const v = varint();
    if (v === 0) return null;
    const end = at + v - 1;
    const s = buffer.toString('utf8', at, end);
    at = end;
    return s;
  };
  const rows: InfoRowFields[] = [];
  while (at < buffer.length) {
    const cusip = buffer.toString('latin1', at, at + CUSIP_BYTES);
    at += CUSIP_BYTES;
    const code = buffer[at++] as number;
    const shareType = code === TEXT_CODE ? (text() as string) : shareTypeOf(code);
    const putCall = code === TEXT_CODE ? text() : putCallOf(code);
    const value = number() as number;
    const shares = number() as number;
    const issuer = text() as string;
    const title = text();
    const d = buffer[at++] as number;
    const discretion = d === TEXT_CODE ? text() : (DISCRETIONS[d] ?? null);
    // biome-ignore format: one value per field of INFO_ROW_FIELDS
    rows.push([cusip, issuer, title, value, shares, shareType, putCall, discretion, number(), number(), number()]);
  }
  return rows;
}
