/**
 * A security's holders and sold-out managers in one quarter, every one of them in page order (value
 * now descending, then CIK), as a read index (db/read-indexes.ts) built on the first request for the
 * security and quarter: each holder's record is kept as the JSON a holders page writes for it
 * (shownHolding, named from the quarter's cover pages), so that a page is those bytes copied into the
 * answer (with a status, a scan of the statuses first). Without it, every page reads and unpacks the
 * security's whole packed holders (~50 bytes a holder: ~290 KB for the most-held security at full
 * scale, 5,814 holders); with records as objects, writing their numbers as text again per request
 * cost more than the rest of the answer (issue 19's floor). ~170 bytes a holder and ~2 KB an index.
 */
import type { Kysely } from 'kysely';
import { readIndex, type Sized } from '../db/read-indexes.js';
import type { Database } from '../db/tables.js';
import type { JsonBuffer } from '../http/json-buffer.js';
import type { Page } from '../http/paging.js';
import { managerNames } from './manager-names.js';
import { holderAt, packedHolders, shownHolding } from './securities.queries.js';
import { CHANGE_STATUSES, type ChangeStatus } from './tables.js';

/**
 * Bytes of an index whatever its size: the object, its arrays, its key and entries in the read
 * indexes' maps, so that a crawl over thousands of rarely held securities stays within the bound
 * too. (Measured on the full-scale demo, the 300 least-held securities' indexes: ~3.0 KB each in
 * all, against ~3.6 KB counted.)
 */
const BYTES_PER_INDEX = 2048;
const COMMA = 0x2c;

export class SecurityHolders implements Sized {
  private constructor(
    /** Every holder's record, as UTF-8 JSON, one after another. */
    private readonly records: Buffer,
    /** Where holder i's record ends in `records` (it starts where i − 1's ends); none when unnamed. */
    private readonly ends: Uint32Array,
    /** Index into CHANGE_STATUSES. */
    private readonly statuses: Uint8Array,
  ) {}

  static async of(db: Kysely<Database>, quarter: string, cusip: string): Promise<SecurityHolders> {
    const [packed, names] = await Promise.all([packedHolders(db, quarter, cusip), managerNames(db, quarter)]);
    const count = packed?.count ?? 0;
    const texts: string[] = [];
    const ends = new Uint32Array(count);
    const statuses = new Uint8Array(count);
    let end = 0;
    for (let i = 0; i < count; i++) {
      const { cik, ...row } = holderAt(packed as NonNullable<typeof packed>, i);
      const shown = shownHolding(row);
      statuses[i] = CHANGE_STATUSES.indexOf(shown.status);
      const name = names.get(cik);
      // As the SQL page does, a holder without a name in the quarter is left out (after paging).
      if (name !== undefined) {
        // The members in the order of the record's schema (HolderChangeRecord).
        const text = JSON.stringify({ cik, name, ...shown });
        texts.push(text);
        end += Buffer.byteLength(text);
      }
      ends[i] = end;
    }
    // Outside Node's shared pool: a small index cut from it would keep a whole 64 KB slab alive.
    const records = Buffer.allocUnsafeSlow(end);
    records.write(texts.join(''));
    return new SecurityHolders(records, ends, statuses);
  }

  get bytes(): number {
    return BYTES_PER_INDEX + this.records.length + this.ends.byteLength + this.statuses.byteLength;
  }

  /** Writes the page's holders (of `status` only, when given) as a JSON array. */
  writePage(json: JsonBuffer, status: ChangeStatus | undefined, { limit, offset }: Page): void {
    const wanted = status === undefined ? -1 : CHANGE_STATUSES.indexOf(status);
    const { ends, statuses, records } = this;
    const end = offset + limit;
    let first = true;
    json.text('[');
    // Without a status the page is a slice; with one, matching holders are counted up to it.
    let matched = wanted < 0 ? offset : 0;
    for (let i = matched; i < ends.length && matched < end; i++) {
      if (wanted >= 0 && statuses[i] !== wanted) continue;
      matched++;
      if (matched <= offset) continue;
      const start = i === 0 ? 0 : (ends[i - 1] as number);
      if (start === ends[i]) continue; // unnamed
      if (!first) json.char(COMMA);
      json.range(records, start, ends[i] as number);
      first = false;
    }
    json.text(']');
  }
}

/**
 * The security's holders in `quarter` as a read index, or null when read indexes are off (a page is
 * then read and unpacked for the request: securities.queries.ts, holderChanges).
 */
export function securityHolders(
  db: Kysely<Database>,
  quarter: string,
  cusip: string,
  maxBytes: number,
): Promise<SecurityHolders | null> {
  return readIndex(db, `security-holders|${quarter}|${cusip}`, maxBytes, () =>
    SecurityHolders.of(db, quarter, cusip),
  );
}
