/**
 * A security's holders and sold-out managers in one quarter, every one of them in page order (value
 * now descending, then CIK), as a read index (db/read-indexes.ts) built on the first request for the
 * security and quarter: any page is then a slice of typed arrays (with a status, a scan of them),
 * with the values kept as the page shows them (shownHolding, as holderChanges shows them). Without
 * it, every page reads and unpacks the security's whole packed holders (~50 bytes a holder: ~290 KB
 * for the most-held security at full scale, 5,814 holders). ~80 bytes a holder and ~2 KB an index.
 */
import type { Kysely } from 'kysely';
import { readIndex, type Sized } from '../db/read-indexes.js';
import type { Database } from '../db/tables.js';
import type { Page } from '../http/paging.js';
import type { PackedChanges } from './change-pack.js';
import { managerNames } from './manager-names.js';
import {
  type HolderRow,
  holderAt,
  holderChanges,
  packedHolders,
  shownHolding,
} from './securities.queries.js';
import { CHANGE_STATUSES, type ChangeStatus } from './tables.js';

/** Bytes per holder: the CIK string (~40) and five doubles and a status byte. */
const BYTES_PER_HOLDER = 40 + 5 * 8 + 1;
/**
 * Bytes of an index whatever its size: the object, its seven arrays, its key and entries in the read
 * indexes' maps (~1.7 KB measured for a one-holder index), so that a crawl over thousands of rarely
 * held securities stays within the bound too.
 */
const BYTES_PER_INDEX = 2048;

export class SecurityHolders implements Sized {
  private constructor(
    private readonly ciks: readonly string[],
    /** Index into CHANGE_STATUSES. */
    private readonly statuses: Uint8Array,
    private readonly shares: Float64Array,
    private readonly values: Float64Array,
    private readonly weights: Float64Array,
    private readonly sharesChanges: Float64Array,
    private readonly valueChanges: Float64Array,
  ) {}

  static async of(db: Kysely<Database>, quarter: string, cusip: string): Promise<SecurityHolders> {
    const packed = await packedHolders(db, quarter, cusip);
    const count = packed?.count ?? 0;
    const ciks: string[] = [];
    const holders = new SecurityHolders(
      ciks,
      new Uint8Array(count),
      new Float64Array(count),
      new Float64Array(count),
      new Float64Array(count),
      new Float64Array(count),
      new Float64Array(count),
    );
    for (let i = 0; i < count; i++) {
      const row = holderAt(packed as PackedChanges, i);
      ciks.push(row.cik);
      holders.set(i, row);
    }
    return holders;
  }

  /** Row i as a holders page shows it (securities.queries.ts). */
  private set(i: number, row: HolderRow): void {
    const shown = shownHolding(row);
    this.statuses[i] = CHANGE_STATUSES.indexOf(shown.status);
    this.shares[i] = shown.shares;
    this.values[i] = shown.value;
    this.weights[i] = shown.weight;
    this.sharesChanges[i] = shown.shares_change;
    this.valueChanges[i] = shown.value_change;
  }

  get bytes(): number {
    return BYTES_PER_INDEX + this.ciks.length * BYTES_PER_HOLDER;
  }

  /** The page's holders (of `status` only, when given), named from `names`. */
  page(status: ChangeStatus | undefined, { limit, offset }: Page, names: ReadonlyMap<string, string>) {
    const wanted = status === undefined ? -1 : CHANGE_STATUSES.indexOf(status);
    const end = offset + limit;
    const out = [];
    // Without a status the page is a slice; with one, matching holders are counted up to it.
    let matched = wanted < 0 ? offset : 0;
    for (let i = matched; i < this.ciks.length && matched < end; i++) {
      if (wanted >= 0 && this.statuses[i] !== wanted) continue;
      matched++;
      if (matched <= offset) continue;
      const cik = this.ciks[i] as string;
      const name = names.get(cik);
      // As the SQL page does, a holder without a name in the quarter is left out after paging.
      if (name === undefined) continue;
      out.push({
        cik,
        name,
        shares: this.shares[i] as number,
        value: this.values[i] as number,
        weight: this.weights[i] as number,
        status: CHANGE_STATUSES[this.statuses[i] as number] as ChangeStatus,
        shares_change: this.sharesChanges[i] as number,
        value_change: this.valueChanges[i] as number,
      });
    }
    return out;
  }
}

/**
 * A page of the security's holders and sold-out managers in `quarter`, by value now descending then
 * CIK: from the read index, or from the security's packed holders read and unpacked for this
 * request when read indexes are off.
 */
export async function holdersPage(
  db: Kysely<Database>,
  quarter: string,
  cusip: string,
  status: ChangeStatus | undefined,
  page: Page,
  maxBytes: number,
) {
  const index = await readIndex(db, `security-holders|${quarter}|${cusip}`, maxBytes, () =>
    SecurityHolders.of(db, quarter, cusip),
  );
  if (!index) return holderChanges(db, quarter, cusip, status, page);
  return index.page(status, page, await managerNames(db, quarter));
}
