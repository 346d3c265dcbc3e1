/**
 * sortByValueDescending (the packers' sort) against a plain stable sort of the same entries: greatest
 * value first, equal values in their order, for lists of every length around its insertion runs and
 * merge widths, for views into a larger list, and as its scratch space grows.
 */
import { describe, expect, it } from 'vitest';
import { sortByValueDescending } from '../../src/typed-arrays.js';
import { random } from '../helpers/random.js';

/** The reference: Array.prototype.sort is stable, so ties keep their order. */
const plainSort = (order: readonly number[], values: Float64Array) =>
  [...order].sort((a, b) => (values[b] as number) - (values[a] as number));

describe('sortByValueDescending', () => {
  const next = random(5);
  const values = Float64Array.from({ length: 50_000 }, () =>
    // Many ties (a handful of values), zeros of both signs, and spread-out values.
    next() < 0.5 ? Math.floor(next() * 5) : next() < 0.1 ? -0 : next() * 1e9 - 1e6,
  );

  it.each([0, 1, 2, 15, 16, 17, 31, 32, 33, 100, 1000, 4097, 50_000])(
    'sorts %i entries as a stable sort does',
    (n) => {
      // Entries in a shuffled order, so that "ties keep their order" is not index order.
      const entries = Array.from({ length: n }, (_, i) => i).sort(() => next() - 0.5);
      const order = Uint32Array.from(entries);
      expect(sortByValueDescending(order, values)).toBe(order);
      expect([...order]).toEqual(plainSort(entries, values));
    },
  );

  it('sorts a view in place and leaves the rest of the list alone', () => {
    const all = Uint32Array.from({ length: 3000 }, (_, i) => (i * 7919) % 50_000);
    const before = [...all];
    const view = all.subarray(1000, 2500);
    sortByValueDescending(view, values);
    expect([...all.subarray(0, 1000)]).toEqual(before.slice(0, 1000));
    expect([...all.subarray(2500)]).toEqual(before.slice(2500));
    expect([...view]).toEqual(plainSort(before.slice(1000, 2500), values));
  });
});
