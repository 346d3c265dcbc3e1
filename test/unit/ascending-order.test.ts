import { describe, expect, it } from 'vitest';
import { ascendingWithRows } from '../../src/ingest/derived/ascending-order.js';
import { random } from '../helpers/random.js';

/** The same answer by a comparison sort of (value, row) pairs: -0 before 0, ties in row order. */
function expected(column: Float64Array) {
  const pairs: [number, number][] = [];
  column.forEach((value, row) => {
    if (!Number.isNaN(value)) pairs.push([value, row]);
  });
  const rank = (v: number) => (Object.is(v, -0) ? -1 : Object.is(v, 0) ? 1 : 0);
  pairs.sort(([a, ra], [b, rb]) => (a !== b ? a - b : rank(a) - rank(b) || ra - rb));
  return { values: pairs.map(([v]) => v), rows: pairs.map(([, r]) => r) };
}

function columnOf(length: number, draw: () => number): Float64Array {
  return Float64Array.from({ length }, draw);
}

describe('ascendingWithRows', () => {
  const next = random(20261126);
  const kinds: [string, () => number][] = [
    [
      'financial-like',
      () => {
        const u = next();
        if (u < 0.1) return Number.NaN;
        if (u < 0.35) return 0;
        if (u < 0.4) return -0;
        if (u < 0.55) return -Math.round(next() * 1e6);
        if (u < 0.75) return next() / 3;
        return Math.round(Math.exp(next() * 30));
      },
    ],
    ['few distinct values', () => [1, 2, 2.5, -7, 1e15][Math.floor(next() * 5)] as number],
    [
      'extremes',
      () =>
        [Number.MAX_VALUE, -Number.MAX_VALUE, Number.MIN_VALUE, -Number.MIN_VALUE, Infinity, -Infinity, 0][
          Math.floor(next() * 7)
        ] as number,
    ],
    ['all equal', () => 42],
    ['all null', () => Number.NaN],
  ];
  for (const [kind, draw] of kinds) {
    it(`orders ${kind} values as a comparison sort does, rows alongside`, () => {
      for (const length of [0, 1, 2, 17, 1000, 6000]) {
        const column = columnOf(length, draw);
        const got = ascendingWithRows(column);
        const want = expected(column);
        expect(got.rows.length).toBe(want.rows.length);
        expect([...got.rows]).toEqual(want.rows);
        // Object.is: -0 stays -0.
        expect([...got.values].every((value, i) => Object.is(value, want.values[i]))).toBe(true);
        // The column itself is left as it was.
        expect(column.length).toBe(length);
      }
    });
  }
});
