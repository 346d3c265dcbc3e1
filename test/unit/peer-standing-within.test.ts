/**
 * standingWithin (the peer index's rank and percentile within one group's slice of a shared array)
 * against standing over a copy of that slice, on random groups with ties, single-member groups and
 * values outside the group's range.
 */
import { describe, expect, it } from 'vitest';
import { standing, standingWithin } from '../../src/banking/peers/stats.js';

function randomSorted(length: number, next: () => number): number[] {
  // Values on a coarse grid, so that ties are common.
  return Array.from({ length }, () => Math.round(next() * 20) / 4).sort((a, b) => a - b);
}

describe('standingWithin', () => {
  it('equals standing over the slice, for every group of a shared array', () => {
    let seed = 7;
    const next = () => {
      seed = (seed * 16807) % 2147483647;
      return seed / 2147483647;
    };
    const groups = Array.from({ length: 200 }, (_, i) => randomSorted(1 + (i % 37), next));
    const shared = new Float64Array(groups.flat());
    let from = 0;
    let compared = 0;
    for (const group of groups) {
      const to = from + group.length;
      const probes = [...group, group[0]! - 1, group.at(-1)! + 1, (group[0]! + group.at(-1)!) / 2];
      for (const value of probes) {
        expect(standingWithin(shared, from, to, value)).toEqual(standing(group, value));
        compared++;
      }
      from = to;
    }
    expect(compared).toBeGreaterThan(3000);
  });

  it('a single-member group: rank 1, percentile 100', () => {
    expect(standingWithin(new Float64Array([5, 9, 12]), 1, 2, 9)).toEqual({ rank: 1, percentile: 100 });
  });
});
