/**
 * `security_positions`: a quarter's positions gathered security by security while the derivation
 * goes manager by manager (in CIK order), then packed per security in the holders list's order
 * (SECURITY_POSITIONS in portfolio-pack.ts: value descending, then CIK, share type and put/call).
 * Kept in typed-array columns while they come (columns.ts: ~25 bytes a position, no object per
 * position) and grouped by a counting sort, so each security's positions are all that is ever
 * sorted. The packing is pure (no database), so it can run in the packing worker
 * (background-packing.ts) while the derivation goes on.
 */
import { packInOrder, SECURITY_POSITIONS } from '../../../../../holdings/portfolio-pack.js';
import { indexRange, sortByValueDescending } from '../../../../../typed-arrays.js';
import {
  type Chunks,
  float64Column,
  groupsOf,
  ManagerNumbers,
  uint8Column,
  uint32Column,
} from './columns.js';
import { batchesOf, type GatheredColumns, type PackedRows } from './packed-rows.js';

/** A quarter's gathered positions, as chunked columns (what the packing worker is sent). */
export interface SecurityPositionColumns extends GatheredColumns {
  readonly code: Chunks<Uint8Array>;
  readonly value: Chunks<Float64Array>;
  readonly shares: Chunks<Float64Array>;
}

export class SecurityPositions {
  private readonly managers = new ManagerNumbers(SECURITY_POSITIONS.keyBytes);
  private count = 0;
  private taken = false;
  private readonly security = uint32Column();
  private readonly manager = uint32Column();
  private readonly code = uint8Column();
  private readonly value = float64Column();
  private readonly shares = float64Column();

  /** The manager whose positions follow; managers must come in ascending CIK order. */
  startManager(cik: string): void {
    this.managers.start(cik);
  }

  /** One position of the current manager in security number `security` (see `take`'s cusips). */
  add(security: number, code: number, value: number, shares: number): void {
    if (this.taken) throw new Error("a quarter's security positions are taken once");
    const at = this.count++;
    this.security.set(at, security);
    this.manager.set(at, this.managers.current);
    this.code.set(at, code);
    this.value.set(at, value);
    this.shares.set(at, shares);
  }

  /** The quarter's positions as columns, `cusips[s]` being security number s. Once only. */
  take(quarter: string, cusips: readonly string[]): SecurityPositionColumns {
    if (this.taken) throw new Error("a quarter's security positions are taken once");
    this.taken = true;
    return {
      quarter,
      cusips,
      ciks: this.managers.ciks,
      security: this.security.take(this.count),
      manager: this.manager.take(this.count),
      code: this.code.take(this.count),
      value: this.value.take(this.count),
      shares: this.shares.take(this.count),
    };
  }
}

/** The quarter's `security_positions` rows (every security held), in batches of about 16 MB. */
export function* packSecurityPositions(columns: SecurityPositionColumns): Generator<PackedRows> {
  for (const rows of batchesOf(securityPositionRows(columns), (row) => row.positions.byteLength))
    yield { table: 'security_positions', rows };
}

function* securityPositionRows(columns: SecurityPositionColumns) {
  const { quarter, cusips, ciks } = columns;
  const { starts, gather } = groupsOf(columns.security, cusips.length);
  const keys = Buffer.from(ciks.join(''), 'latin1');
  // biome-ignore format: the columns
  const grouped = { values: gather(columns.value), shares: gather(columns.shares), codes: gather(columns.code), keys,
    keyOf: gather(columns.manager) };
  for (let s = 0; s < cusips.length; s++) {
    // A security's positions come manager by manager (numbered in CIK order), each manager's in
    // (share type, put/call) order: sorted by value with ties kept, they are in the holders list's order.
    const held = sortByValueDescending(
      indexRange(starts[s] as number, starts[s + 1] as number),
      grouped.values,
    );
    if (held.length === 0) continue;
    const positions = packInOrder(SECURITY_POSITIONS, held, grouped);
    yield { quarter, cusip: cusips[s] as string, positions };
  }
}
