import { doubled } from '../../../../../typed-arrays.js';

/**
 * What a day changes for the daily crowding (crowding.ts): equity positions that start (+1) or stop
 * (−1) counting, by CUSIP number. In typed arrays grown by doubling, since most of a quarter's
 * positions pass through here (millions); only the first `length` entries of each are set.
 */
export class DayChanges {
  numbers = new Int32Array(256);
  signs = new Int8Array(256);
  values = new Float64Array(256);
  shares = new Float64Array(256);
  length = 0;

  add(n: number, sign: number, value: number, shares: number): void {
    if (this.length === this.numbers.length) this.grow();
    const at = this.length++;
    this.numbers[at] = n;
    this.signs[at] = sign;
    this.values[at] = value;
    this.shares[at] = shares;
  }

  private grow(): void {
    this.numbers = doubled(this.numbers);
    this.signs = doubled(this.signs);
    this.values = doubled(this.values);
    this.shares = doubled(this.shares);
  }
}
