/**
 * One quarter's changes gathered security by security while the changes pass goes manager by
 * manager, then written per security: its counts per status (`security_changes`) and its holders
 * packed in the holders page's order (`holders_by_security`: value after descending, then CIK).
 *
 * Changes are kept in typed-array chunks while they come (columns.ts: ~49 bytes each, no object
 * per change: ~190 MB for a quarter of 3.8 million, never copied into one array), handed over as
 * those chunks and grouped by a counting sort, so each security's few holders are all that is ever
 * compared. The packing is pure (no database), so it can run in the packing worker
 * (background-packing.ts) while the derivation goes on.
 */
import {
  packChanges,
  SECURITY_HOLDERS,
  SHARES_AFTER,
  SHARES_BEFORE,
  VALUE_AFTER,
  VALUE_BEFORE,
  WEIGHT_AFTER,
} from '../../../../../holdings/change-pack.js';
import { CHANGE_STATUSES, type SecurityChangesTable } from '../../../../../holdings/tables.js';
import { indexRange, sortByValueDescending } from '../../../../../typed-arrays.js';
import {
  type ChunkedColumn,
  type Chunks,
  float64Column,
  groupsOf,
  ManagerNumbers,
  uint8Column,
  uint32Column,
} from './columns.js';
import type { CusipNumbers } from './cusip-numbers.js';
import type { EquityChanges } from './equity-changes.js';
import { batchesOf, type GatheredColumns, type PackedRows } from './packed-rows.js';

/** A quarter's gathered changes, as chunked columns (what the packing worker is sent). */
export interface HolderColumns extends GatheredColumns {
  readonly status: Chunks<Uint8Array>;
  /** SECURITY_HOLDERS' number columns. */
  readonly numbers: readonly Chunks<Float64Array>[];
}

export class QuarterHolders {
  /** The quarter's securities, numbered in the order first seen (the order they are written in). */
  private readonly securities: string[] = [];
  /** 1 + the quarter's number of a CUSIP number of the pass; 0 until seen. */
  private local = new Int32Array(0);
  private readonly managers = new ManagerNumbers(SECURITY_HOLDERS.keyBytes);
  private count = 0;
  private taken = false;
  private readonly security = uint32Column();
  private readonly manager = uint32Column();
  private readonly status = uint8Column();
  private readonly numbers = Array.from({ length: SECURITY_HOLDERS.columns }, float64Column);

  /** `pass`: the changes pass's CUSIP numbering, which the changes added are in. */
  constructor(private readonly pass: CusipNumbers) {}

  /** One manager's changes; managers must come in ascending CIK order. */
  add(cik: string, changes: EquityChanges): void {
    if (this.taken) throw new Error("a quarter's holders are taken once");
    this.managers.start(cik);
    if (this.local.length < this.pass.cusips.length) {
      const grown = new Int32Array(Math.max(this.pass.cusips.length, 2 * this.local.length));
      grown.set(this.local);
      this.local = grown;
    }
    const manager = this.managers.current;
    const column = (c: number) => this.numbers[c] as ChunkedColumn<Float64Array>;
    const sharesBefore = column(SHARES_BEFORE);
    const sharesAfter = column(SHARES_AFTER);
    const valueBefore = column(VALUE_BEFORE);
    const valueAfter = column(VALUE_AFTER);
    const weightAfter = column(WEIGHT_AFTER);
    for (let r = 0; r < changes.count; r++) {
      const cusip = changes.cusips[r] as number;
      let security = (this.local[cusip] as number) - 1;
      if (security < 0) {
        security = this.securities.length;
        this.securities.push(this.pass.cusips[cusip] as string);
        this.local[cusip] = security + 1;
      }
      const at = this.count++;
      this.security.set(at, security);
      this.manager.set(at, manager);
      this.status.set(at, changes.status[r] as number);
      sharesBefore.set(at, changes.sharesBefore[r] as number);
      sharesAfter.set(at, changes.sharesAfter[r] as number);
      valueBefore.set(at, changes.valueBefore[r] as number);
      valueAfter.set(at, changes.valueAfter[r] as number);
      weightAfter.set(at, changes.weightAfter[r] as number);
    }
  }

  /** The quarter's changes as columns. Once only. */
  take(quarter: string): HolderColumns {
    if (this.taken) throw new Error("a quarter's holders are taken once");
    this.taken = true;
    return {
      quarter,
      cusips: this.securities,
      ciks: this.managers.ciks,
      security: this.security.take(this.count),
      manager: this.manager.take(this.count),
      status: this.status.take(this.count),
      numbers: this.numbers.map((column) => column.take(this.count)),
    };
  }
}

/**
 * The quarter's holders_by_security rows in batches of about 16 MB, then its security_changes rows
 * (one per security, counts per status).
 */
export function* packHolders(columns: HolderColumns): Generator<PackedRows> {
  const counted: SecurityChangesTable[] = [];
  for (const rows of batchesOf(holderRows(columns, counted), (row) => row.holders.byteLength))
    yield { table: 'holders_by_security', rows };
  if (counted.length > 0) yield { table: 'security_changes', rows: counted };
}

/** Each security's holders row, its counts added to `counted` as it goes. */
function* holderRows(columns: HolderColumns, counted: SecurityChangesTable[]) {
  const { quarter, cusips } = columns;
  const { starts, gather } = groupsOf(columns.security, cusips.length);
  const numbers = columns.numbers.map(gather);
  const manager = gather(columns.manager);
  const status = gather(columns.status);
  const values = numbers[VALUE_AFTER] as Float64Array;
  const ciks = Buffer.from(columns.ciks.join(''), 'latin1');
  const w = SECURITY_HOLDERS.keyBytes;
  for (let s = 0; s < cusips.length; s++) {
    // A security's changes come manager by manager, numbered in CIK order: sorted by value with ties
    // kept, they are in page order (value descending, then CIK).
    const holders = sortByValueDescending(indexRange(starts[s] as number, starts[s + 1] as number), values);
    const counts = [0, 0, 0, 0, 0];
    for (const entry of holders) {
      const code = status[entry] as number;
      counts[code] = (counts[code] as number) + 1;
    }
    const packed = packChanges(SECURITY_HOLDERS, {
      count: holders.length,
      head: [],
      numbers: (c, into) => {
        const column = numbers[c] as Float64Array;
        for (let i = 0; i < holders.length; i++) into[i] = column[holders[i] as number] as number;
      },
      statuses: (into) => {
        for (let i = 0; i < holders.length; i++) into[i] = status[holders[i] as number] as number;
      },
      keys: (into) => {
        for (let i = 0; i < holders.length; i++) {
          const from = w * (manager[holders[i] as number] as number);
          for (let k = 0; k < w; k++) into[w * i + k] = ciks[from + k] as number;
        }
      },
    });
    const cusip = cusips[s] as string;
    counted.push({ quarter, cusip, ...countColumns(counts) });
    yield { quarter, cusip, holders: packed };
  }
}

/** The count columns of manager_changes and security_changes, from counts in CHANGE_STATUSES order. */
export const countColumns = (c: readonly number[]) => ({
  new_count: c[CHANGE_STATUSES.indexOf('new')] ?? 0,
  added_count: c[CHANGE_STATUSES.indexOf('added')] ?? 0,
  reduced_count: c[CHANGE_STATUSES.indexOf('reduced')] ?? 0,
  unchanged_count: c[CHANGE_STATUSES.indexOf('unchanged')] ?? 0,
  sold_out_count: c[CHANGE_STATUSES.indexOf('sold_out')] ?? 0,
});
