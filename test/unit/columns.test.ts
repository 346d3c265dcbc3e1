/**
 * Chunked columns and their grouping by a counting sort (derive/columns.ts), against plain arrays
 * grouped by a stable sort: across chunk boundaries (65,536 entries a chunk), with empty groups, a
 * chunk filled exactly, and a column of no entries.
 */
import { describe, expect, it } from 'vitest';
import {
  float64Column,
  groupsOf,
  uint8Column,
  uint32Column,
} from '../../src/ingest/sources/sec/holdings/derive/columns.js';
import { random } from '../helpers/random.js';

const CHUNK = 65_536;

function grouped(count: number, groups: number, seed: number) {
  const next = random(seed);
  // Every other group left empty, so that empty groups sit between full ones.
  const group = Array.from({ length: count }, () => 2 * Math.floor(next() * Math.ceil(groups / 2)));
  const value = Array.from({ length: count }, () => next() * 1e6);
  const code = Array.from({ length: count }, (_, e) => e % 251);
  const columns = { group: uint32Column(), value: float64Column(), code: uint8Column() };
  for (let e = 0; e < count; e++) {
    columns.group.set(e, group[e] as number);
    columns.value.set(e, value[e] as number);
    columns.code.set(e, code[e] as number);
  }
  // The same entries grouped by a stable sort of plain arrays.
  const order = Array.from({ length: count }, (_, e) => e).sort(
    (a, b) => (group[a] as number) - (group[b] as number),
  );
  return { columns, group, value, code, order };
}

/** The first entry where `got` differs from `want` (-1: none), so that a failure prints one number. */
function firstDifference(got: ArrayLike<number>, want: readonly number[]): number {
  if (got.length !== want.length) return Math.min(got.length, want.length);
  for (let i = 0; i < want.length; i++) if (got[i] !== want[i]) return i;
  return -1;
}

describe('chunked columns grouped by a counting sort', () => {
  for (const count of [0, 1, CHUNK - 1, CHUNK, CHUNK + 1, 3 * CHUNK + 12_345]) {
    it(`${count} entries: each group's entries, in entry order, in every column`, () => {
      const groups = 101;
      const { columns, group, value, code, order } = grouped(count, groups, count + 7);
      const taken = {
        group: columns.group.take(count),
        value: columns.value.take(count),
        code: columns.code.take(count),
      };
      expect(taken.group.chunks.length).toBe(Math.max(1, Math.ceil(count / CHUNK)));
      const { starts, gather } = groupsOf(taken.group, groups);
      expect(starts.length).toBe(groups + 1);
      for (let g = 0; g < groups; g++)
        expect((starts[g + 1] as number) - (starts[g] as number)).toBe(group.filter((x) => x === g).length);
      const values = gather(taken.value);
      const codes = gather(taken.code);
      expect(values).toBeInstanceOf(Float64Array);
      const inOrder = (column: readonly number[]) => order.map((e) => column[e] as number);
      expect(firstDifference(values, inOrder(value))).toBe(-1);
      expect(firstDifference(codes, inOrder(code))).toBe(-1);
      expect(firstDifference(gather(taken.group), inOrder(group))).toBe(-1);
    });
  }

  it('refuses a column of another length than the grouping', () => {
    const a = uint32Column();
    const b = float64Column();
    for (let e = 0; e < 10; e++) a.set(e, e % 3);
    for (let e = 0; e < 9; e++) b.set(e, e);
    const { gather } = groupsOf(a.take(10), 3);
    expect(() => gather(b.take(9))).toThrow(/9 entries grouped as 10/);
    // A count the chunks do not hold (taken twice, or miscounted) is refused, not read as zeros.
    const c = uint32Column();
    for (let e = 0; e < 10; e++) c.set(e, 0);
    expect(() => groupsOf(c.take(CHUNK + 1), 1)).toThrow(/65537 entries in chunks that do not hold them/);
    expect(() => groupsOf(c.take(10), 1)).toThrow(/10 entries in chunks that do not hold them/);
  });
});
