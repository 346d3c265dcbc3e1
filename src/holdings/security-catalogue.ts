/**
 * The security master in memory, once per dataset version: each CUSIP gets a number (its id, dense
 * from 0) with its issuer, title of class and ticker, and the JSON bytes portfolio, overlap and
 * compare answers open their records with (encoded on first use). Those answers name thousands of
 * securities each; looking them up here replaced a join per position. Lookups read a packed portfolio's CUSIP bytes
 * in place (an open-addressing table over the 9 bytes), so no string is made per position.
 * 30,000 securities at full scale: ~6 MB, loaded in ~30 ms, and ~5 MB of encoded record starts once
 * every one has been written (in two buffers of 4 MB).
 */
import type { Kysely } from 'kysely';
import { perVersion } from '../db/per-version.js';
import type { Database } from '../db/tables.js';
import type { JsonBuffer } from '../http/json-buffer.js';

export interface CatalogueEntry {
  readonly cusip: string;
  readonly issuer: string;
  readonly title_of_class: string | null;
  readonly ticker: string | null;
}

const CUSIP_BYTES = 9;

export class SecurityCatalogue {
  private readonly entries: CatalogueEntry[] = [];
  private readonly bytes: Uint8Array;
  private readonly slots: Int32Array;
  private readonly mask: number;

  /** Per id, a portfolio record's start, encoded on first use. */
  private readonly recordStarts: EncodedStarts;
  /** Per id, an overlap or compare record's start, encoded on first use. */
  private readonly identityStarts: EncodedStarts;

  constructor(securities: readonly CatalogueEntry[]) {
    this.bytes = new Uint8Array(securities.length * CUSIP_BYTES);
    let size = 16;
    while (size < securities.length * 2) size *= 2;
    this.slots = new Int32Array(size).fill(-1);
    this.mask = size - 1;
    for (const { cusip, issuer, title_of_class, ticker } of securities) {
      if (cusip.length !== CUSIP_BYTES || this.idOf(cusip) >= 0) continue;
      const id = this.entries.length;
      this.bytes.set(Buffer.from(cusip, 'latin1'), id * CUSIP_BYTES);
      this.slots[this.freeSlot(this.bytes, id * CUSIP_BYTES)] = id;
      this.entries.push({ cusip, issuer, title_of_class, ticker });
    }
    this.recordStarts = new EncodedStarts(this.entries.length, (id) => recordStartText(this.entry(id)));
    this.identityStarts = new EncodedStarts(this.entries.length, (id) => {
      const { cusip, issuer, ticker } = this.entry(id);
      return openRecord({ cusip, issuer, ticker });
    });
  }

  get size(): number {
    return this.entries.length;
  }

  entry(id: number): CatalogueEntry {
    return this.entries[id] as CatalogueEntry;
  }

  /** Writes `{"cusip":…,"issuer":…,"title_of_class":…,"ticker":…,` (a portfolio record's start). */
  writeRecordStart(json: JsonBuffer, id: number): JsonBuffer {
    return this.recordStarts.write(json, id);
  }

  /** Writes `{"cusip":…,"issuer":…,"ticker":…,` (an overlap or compare record's start). */
  writeIdentityStart(json: JsonBuffer, id: number): JsonBuffer {
    return this.identityStarts.write(json, id);
  }

  /** The id of the CUSIP whose 9 bytes start at `bytes[at]`, or -1. */
  idAt(bytes: Uint8Array, at: number): number {
    let slot = hash(bytes, at) & this.mask;
    for (;;) {
      const id = this.slots[slot] as number;
      if (id < 0 || this.sameCusip(id, bytes, at)) return id;
      slot = (slot + 1) & this.mask;
    }
  }

  idOf(cusip: string): number {
    return cusip.length === CUSIP_BYTES ? this.idAt(Buffer.from(cusip, 'latin1'), 0) : -1;
  }

  private sameCusip(id: number, bytes: Uint8Array, at: number): boolean {
    const own = id * CUSIP_BYTES;
    for (let k = 0; k < CUSIP_BYTES; k++) if (this.bytes[own + k] !== bytes[at + k]) return false;
    return true;
  }

  private freeSlot(bytes: Uint8Array, at: number): number {
    let slot = hash(bytes, at) & this.mask;
    while ((this.slots[slot] as number) >= 0) slot = (slot + 1) & this.mask;
    return slot;
  }
}

/** A portfolio record's start for a security (also one the catalogue lacks), as JSON text. */
export function recordStartText({ cusip, issuer, title_of_class, ticker }: CatalogueEntry): string {
  return openRecord({ cusip, issuer, title_of_class, ticker });
}

/** `members` as the JSON text that opens a record: `{"a":…,"b":…,` (more members follow). */
function openRecord(members: object): string {
  return `${JSON.stringify(members).slice(0, -1)},`;
}

/**
 * Texts encoded as UTF-8 on first use, one after another in one buffer of their own. (A small
 * Buffer each would be cut from Node's shared allocation pool, and each would keep a whole 64 KB
 * slab of it alive for as long as the dataset version.)
 */
class EncodedStarts {
  /** Grown on first use (most catalogues of a short-lived dataset version never write a record). */
  private bytes = Buffer.allocUnsafeSlow(0);
  private used = 0;
  /** Per id, where its text starts and ends in `bytes`; an end of 0: not encoded yet. */
  private readonly starts: Uint32Array;
  private readonly ends: Uint32Array;

  constructor(
    count: number,
    private readonly textOf: (id: number) => string,
  ) {
    this.starts = new Uint32Array(count);
    this.ends = new Uint32Array(count);
  }

  write(json: JsonBuffer, id: number): JsonBuffer {
    const end = this.ends[id];
    // An id the catalogue never gave would otherwise copy whatever the buffer holds.
    if (end === undefined) throw new RangeError(`no security with id ${id}`);
    if (end === 0) this.encode(id);
    return json.range(this.bytes, this.starts[id] as number, this.ends[id] as number);
  }

  private encode(id: number): void {
    const text = this.textOf(id);
    const length = Buffer.byteLength(text);
    if (this.used + length > this.bytes.length) {
      const grown = Buffer.allocUnsafeSlow(Math.max(2 * this.bytes.length, this.used + length, 1 << 16));
      this.bytes.copy(grown, 0, 0, this.used);
      this.bytes = grown;
    }
    this.starts[id] = this.used;
    this.used += this.bytes.write(text, this.used);
    this.ends[id] = this.used;
  }
}

/** FNV-1a over a CUSIP's 9 bytes. */
function hash(bytes: Uint8Array, at: number): number {
  let h = 0x811c9dc5;
  for (let k = 0; k < CUSIP_BYTES; k++) h = Math.imul(h ^ (bytes[at + k] as number), 0x01000193);
  return h >>> 0;
}

async function load(db: Kysely<Database>): Promise<SecurityCatalogue> {
  const rows = await db
    .selectFrom('securities')
    .select(['cusip', 'issuer', 'title_of_class', 'ticker'])
    .execute();
  return new SecurityCatalogue(rows.map((row) => ({ ...row, ticker: row.ticker ?? null })));
}

const cached = perVersion(load);
/** The versions whose catalogue was read again for a missing CUSIP (at most once per version). */
const reread = perVersion(load);

/**
 * `build` run with the catalogue of the dataset version served (read for every call on a handle
 * that serves no versions), and once more with the catalogue
 * read again when it lacked a CUSIP a position names (`missing` > 0): a load committed between the
 * version check and the read. The second read is kept for that version, so it happens once; a
 * CUSIP the security master really lacks is then left out by `build`, as a join would.
 */
export async function withSecurityNames<T extends { missing: number }>(
  db: Kysely<Database>,
  build: (catalogue: SecurityCatalogue) => T,
): Promise<T> {
  const first = build(await cached(db));
  return first.missing === 0 ? first : build(await reread(db));
}
