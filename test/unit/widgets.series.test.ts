/** Quarterly series, summaries and text fitting behind the widget card, as input/output tables. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  quarterEnd,
  quarterIndex,
  quarterLabel,
  type SeriesPoint,
  summarise,
  toQuarterlySeries,
} from '../../src/widgets/series.js';
import { estimateWidth, formatPercent, formatPoints, truncate, wrapText } from '../../src/widgets/text.js';

const p = (date: string, value: number | null): SeriesPoint => ({ date, value });

describe('quarters', () => {
  it.each([
    ['2026-06-30', 'Q2 2026', '2026-06-30'],
    ['2026-03-31', 'Q1 2026', '2026-03-31'],
    ['2025-12-31', 'Q4 2025', '2025-12-31'],
    ['2025-11-15', 'Q4 2025', '2025-12-31'],
  ])('%s is %s, ending %s', (date, label, end) => {
    expect(quarterLabel(date)).toBe(label);
    expect(quarterEnd(quarterIndex(date))).toBe(end);
  });
});

describe('toQuarterlySeries', () => {
  it.each([
    ['nothing reported', [p('2026-06-30', null)], []],
    ['empty', [], []],
    ['one value', [p('2026-06-30', 1)], [p('2026-06-30', 1)]],
    [
      'unordered rows come out ascending',
      [p('2026-06-30', 2), p('2026-03-31', 1)],
      [p('2026-03-31', 1), p('2026-06-30', 2)],
    ],
    [
      'a missing quarter becomes a null slot',
      [p('2025-12-31', 1), p('2026-06-30', 3)],
      [p('2025-12-31', 1), p('2026-03-31', null), p('2026-06-30', 3)],
    ],
    [
      'trailing unreported quarters are dropped',
      [p('2026-03-31', 1), p('2026-06-30', null)],
      [p('2026-03-31', 1)],
    ],
    [
      'non-finite values count as unreported',
      [p('2026-03-31', 1), p('2026-06-30', Number.NaN)],
      [p('2026-03-31', 1)],
    ],
  ])('%s', (_case, rows, expected) => {
    expect(toQuarterlySeries(rows)).toEqual(expected);
  });

  it('keeps at most the last 20 quarters', () => {
    const rows = Array.from({ length: 30 }, (_, i) => p(quarterEnd(quarterIndex('2019-03-31') + i), i));
    const result = toQuarterlySeries(rows);
    expect(result).toHaveLength(20);
    expect(result[0]).toEqual(rows[10]);
    expect(result.at(-1)).toEqual(rows[29]);
  });
});

describe('summarise', () => {
  it.each([
    ['empty', [], null],
    ['one point', [p('2026-06-30', 1)], { change: null, previous: null }],
    ['rise', [p('2026-03-31', 1.1), p('2026-06-30', 1.15)], { change: 0.05 }],
    ['fall', [p('2026-03-31', 2), p('2026-06-30', -1.5)], { change: -3.5 }],
    ['no change is 0, never -0', [p('2026-03-31', 1), p('2026-06-30', 1)], { change: 0 }],
    ['previous null', [p('2026-03-31', null), p('2026-06-30', 1)], { change: null }],
  ])('%s', (_case, series, expected) => {
    const summary = summarise(series);
    if (expected === null) expect(summary).toBeNull();
    else expect(summary).toMatchObject(expected);
    if (summary?.change === 0) expect(Object.is(summary.change, -0)).toBe(false);
  });
});

describe('text fitting', () => {
  it.each([
    ['Short Bank', 200, 'Short Bank'],
    ['A rather long institution name that will not fit', 150, 'A rather long institut…'],
    ['   spaces    collapse  ', 200, 'spaces collapse'],
    ['WWWWWWWWWWWWWWWWWWWW', 60, 'WWWW…'],
    ['🏦🏦🏦🏦🏦🏦🏦🏦🏦🏦', 50, '🏦🏦🏦…'],
  ])('truncate(%j, %i px)', (text, width, expected) => {
    const result = truncate(text, width, 12);
    expect(result).toBe(expected);
    expect(estimateWidth(result, 12)).toBeLessThanOrEqual(width);
  });

  it('wraps into at most the given lines, ellipsising the rest', () => {
    const text = 'metric must be one of: roa, roe, efficiency_ratio, equity_ratio, npl_ratio, tier1_leverage';
    const lines = wrapText(text, 120, 12, 3);
    expect(lines).toHaveLength(3);
    expect(lines.at(-1)?.endsWith('…')).toBe(true);
    for (const line of lines) expect(estimateWidth(line, 12)).toBeLessThanOrEqual(120);
    expect(wrapText('short', 120, 12, 3)).toEqual(['short']);
  });

  it.each([
    [1.15, '1.15%', '1.15 pp'],
    [-0.4, '-0.40%', '0.40 pp'],
    [1234.5, '1,234.50%', '1,234.50 pp'],
    [2_500_000, '2.5M%', '2.5M pp'],
    [0, '0.00%', '0.00 pp'],
  ])('formats %d as %s and %s', (value, percent, points) => {
    expect(formatPercent(value)).toBe(percent);
    expect(formatPoints(value)).toBe(points);
  });
});

describe('properties', () => {
  it('truncate always fits and is a prefix of the cleaned text (or the text itself)', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'grapheme', maxLength: 120 }),
        fc.integer({ min: 10, max: 300 }),
        (text, width) => {
          const clean = text.replace(/\s+/g, ' ').trim();
          const result = truncate(text, width, 14, true);
          if (result === clean) return estimateWidth(clean, 14, true) <= width;
          expect(result.endsWith('…')).toBe(true);
          expect(clean.startsWith(result.slice(0, -1))).toBe(true);
          return result === '…' || estimateWidth(result, 14, true) <= width;
        },
      ),
    );
  });

  it('toQuarterlySeries ends at a reported value, spans at most 20 quarters and has no holes', () => {
    const row = fc.record({
      date: fc.integer({ min: 2000 * 4, max: 2030 * 4 + 3 }).map(quarterEnd),
      value: fc.option(fc.double({ min: -1e6, max: 1e6, noNaN: true }), { nil: null }),
    });
    fc.assert(
      fc.property(fc.uniqueArray(row, { selector: (r) => r.date, maxLength: 60 }), (rows) => {
        const series = toQuarterlySeries(rows);
        if (series.length === 0) return rows.every((r) => r.value === null);
        const indexes = series.map((point) => quarterIndex(point.date));
        expect(series.at(-1)?.value).not.toBeNull();
        expect(series.length).toBeLessThanOrEqual(20);
        expect(indexes).toEqual(indexes.map((_, i) => (indexes[0] as number) + i));
        return true;
      }),
    );
  });
});
