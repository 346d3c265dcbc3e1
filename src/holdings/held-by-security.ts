/**
 * What 2 to 5 managers hold, summed per security (over share types and put/call), in flat arrays:
 * one slot per security any of them holds, in the order first met, with a bit per manager that holds
 * it. Overlap and compare (comparison.ts) walk the slots once. Securities are the catalogue's ids,
 * so adding a position is one table lookup of its CUSIP bytes and a few array writes: no string, map
 * entry or object per position (a 5-manager overlap adds ~50,000 positions).
 */
import { CUSIP_BYTES, type PackedPortfolio } from './portfolio-pack.js';
import type { SecurityCatalogue } from './security-catalogue.js';

export class HeldBySecurity {
  /** Slot → security id. */
  readonly ids: number[] = [];
  /** Slot → bit i set when manager i holds the security. */
  readonly holders: number[] = [];
  /** Slot × managers + manager → summed value (thousands of USD) and shares. */
  private values: Float64Array;
  private shares: Float64Array;
  private readonly slotOf: Int32Array;
  /** Positions whose CUSIP the catalogue lacks (left out). */
  missing = 0;

  constructor(
    readonly managers: number,
    readonly catalogue: SecurityCatalogue,
    expectedSlots = 1024,
  ) {
    this.slotOf = new Int32Array(catalogue.size).fill(-1);
    this.values = new Float64Array(expectedSlots * managers);
    this.shares = new Float64Array(expectedSlots * managers);
  }

  get slots(): number {
    return this.ids.length;
  }

  value(slot: number, manager: number): number {
    return this.values[slot * this.managers + manager] as number;
  }

  sharesOf(slot: number, manager: number): number {
    return this.shares[slot * this.managers + manager] as number;
  }

  add(manager: number, id: number, value: number, shares: number): void {
    let slot = this.slotOf[id] as number;
    if (slot < 0) {
      slot = this.ids.length;
      this.slotOf[id] = slot;
      this.ids.push(id);
      this.holders.push(0);
      if ((slot + 1) * this.managers > this.values.length) this.grow();
    }
    this.holders[slot] = (this.holders[slot] as number) | (1 << manager);
    const at = slot * this.managers + manager;
    this.values[at] = (this.values[at] as number) + value;
    this.shares[at] = (this.shares[at] as number) + shares;
  }

  addPack(manager: number, pack: PackedPortfolio): void {
    const { cusipBytes, values, shares } = pack;
    for (let j = 0; j < pack.count; j++) {
      const id = this.catalogue.idAt(cusipBytes, CUSIP_BYTES * j);
      if (id < 0) this.missing++;
      else this.add(manager, id, values[j] as number, shares[j] as number);
    }
  }

  private grow(): void {
    const values = new Float64Array(this.values.length * 2);
    const shares = new Float64Array(this.shares.length * 2);
    values.set(this.values);
    shares.set(this.shares);
    this.values = values;
    this.shares = shares;
  }
}

/** Number of managers holding the slot's security (bits set). */
export function holderCount(bits: number): number {
  let count = 0;
  for (let b = bits; b !== 0; b &= b - 1) count++;
  return count;
}
