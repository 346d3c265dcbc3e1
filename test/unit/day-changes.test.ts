/**
 * A day's crowding changes (day-changes.ts) are kept in chunks that grow without copying: every
 * change comes back, in the order added, across the chunk boundaries and past the largest chunk.
 */
import { describe, expect, it } from 'vitest';
import { DayChanges } from '../../src/ingest/sources/sec/holdings/derive/day-changes.js';

describe('DayChanges', () => {
  it('keeps every change in order, across chunks', () => {
    for (const total of [0, 1, 255, 256, 257, 767, 768, 769, 200_000]) {
      const day = new DayChanges();
      for (let i = 0; i < total; i++) day.add(i * 7, i % 3 === 0 ? -1 : 1, i / 4, i * 2 + 0.5);
      const seen: [number, number, number, number][] = [];
      for (const chunk of day.chunks)
        for (let i = 0; i < chunk.count; i++)
          seen.push([
            chunk.numbers[i] as number,
            chunk.signs[i] as number,
            chunk.values[i] as number,
            chunk.shares[i] as number,
          ]);
      expect(seen).toEqual(
        Array.from({ length: total }, (_, i) => [i * 7, i % 3 === 0 ? -1 : 1, i / 4, i * 2 + 0.5]),
      );
      // Only the last chunk may be part-filled, and none is larger than 65,536 entries.
      expect(day.chunks.slice(0, -1).every((chunk) => chunk.count === chunk.numbers.length)).toBe(true);
      expect(Math.max(...day.chunks.map((chunk) => chunk.numbers.length))).toBeLessThanOrEqual(65_536);
    }
  });
});
