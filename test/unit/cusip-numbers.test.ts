/**
 * CusipNumbers gives a CUSIP one number however it is handed over (its text, nine characters of a
 * longer text, nine packed bytes), numbers in the order first seen, and keys outside the CUSIP
 * alphabet the same way by their text; checked against a plain map of the texts.
 */
import { describe, expect, it } from 'vitest';
import { CusipNumbers } from '../../src/ingest/sources/sec/holdings/derive/cusip-numbers.js';

// Real CUSIPs, a private placement's `*`/`@`/`#`, and keys no CUSIP has (lower case, a space, é).
const KEYS = [
  '037833100',
  '594918104',
  '02079K305',
  'G0176J109',
  '12345*AB1',
  '9@#ABCDEF',
  'zzzzzzzzz',
  '12345 678',
  'é12345678',
];

describe('CusipNumbers', () => {
  it('numbers a CUSIP alike from its text, a longer text and packed bytes, in first-seen order', () => {
    const numbers = new CusipNumbers();
    const expected = new Map<string, number>();
    // Every key three times, each time by another route, in a shuffled order.
    const order = [...KEYS, ...KEYS.slice().reverse(), ...KEYS.filter((_, i) => i % 2 === 0), ...KEYS];
    const joined = order.join('');
    const bytes = Buffer.from(joined, 'latin1');
    order.forEach((key, i) => {
      const want = expected.get(key) ?? expected.size;
      expected.set(key, want);
      const route = i % 3;
      const got =
        route === 0
          ? numbers.numberOf(key)
          : route === 1
            ? numbers.numberIn(joined, 9 * i)
            : numbers.numberAt(bytes, 9 * i);
      expect(got, `${key} by route ${route}`).toBe(want);
    });
    expect(numbers.cusips).toEqual([...expected.keys()]);
    for (const [key, n] of expected) expect(numbers.find(key)).toBe(n);
    expect(numbers.find('000000000')).toBeUndefined();
    expect(numbers.find('short')).toBeUndefined();
  });

  it('tells apart CUSIPs that differ in one place, at either end', () => {
    const numbers = new CusipNumbers();
    const keys = ['000000000', '000000001', '100000000', '#########', '@@@@@@@@@', 'ZZZZZZZZZ'];
    const got = keys.map((key) => numbers.numberOf(key));
    expect(got).toEqual([0, 1, 2, 3, 4, 5]);
  });
});
