/**
 * CusipNumbers gives a CUSIP one number however it is handed over (its text, nine characters of a
 * longer text, nine packed bytes), numbers in the order first seen, and keys outside the CUSIP
 * alphabet the same way by their text; checked against a plain map of the texts, also past the
 * growth of its table of codes. Each number's CUSIP is written back as writeKey writes its text.
 */
import { describe, expect, it } from 'vitest';
import { writeKey } from '../../src/holdings/change-pack.js';
import { CusipNumbers, codeHash } from '../../src/ingest/sources/sec/holdings/derive/cusip-numbers.js';

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
    expect(numbers.findAt(Buffer.from('000000000'), 0)).toBeUndefined();
    expect(numbers.findAt(Buffer.from('x12345678', 'latin1'), 0)).toBeUndefined();
    // Keys outside the alphabet are found by their text, from bytes too.
    expect(numbers.findAt(Buffer.from('12345 678', 'latin1'), 0)).toBe(expected.get('12345 678'));
    for (const [key, n] of expected) {
      const [got, want] = [Buffer.alloc(12, 1), Buffer.alloc(12, 1)];
      numbers.writeCusip(n, got, 2);
      writeKey(key, 9, want, 2);
      expect(got, key).toEqual(want);
    }
    // A key that is not nine characters is refused as writeKey refuses it.
    expect(() => numbers.writeCusip(numbers.numberOf('short'), Buffer.alloc(9), 0)).toThrow(
      'key short is not 9 characters',
    );
  });

  it('keeps every number as its table grows past 100,000 CUSIPs, found again by every route', () => {
    const numbers = new CusipNumbers();
    const alphabet = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ*@#';
    let state = 7;
    const draw = () => {
      state = (Math.imul(state, 1103515245) + 12345) >>> 0;
      return alphabet[state % alphabet.length] as string;
    };
    const keys = new Set<string>();
    while (keys.size < 120_000) keys.add(Array.from({ length: 9 }, draw).join(''));
    // Neighbours in code order too: the last character's digits are adjacent codes.
    for (const last of alphabet) keys.add(`03783310${last}`);
    const list = [...keys];
    const given = list.map((key) => numbers.numberOf(key));
    const joined = list.join('');
    const bytes = Buffer.from(joined, 'latin1');
    const wrong = list.filter(
      (key, i) =>
        given[i] !== i ||
        numbers.numberIn(joined, 9 * i) !== i ||
        numbers.numberAt(bytes, 9 * i) !== i ||
        numbers.find(key) !== i ||
        numbers.findAt(bytes, 9 * i) !== i,
    );
    expect(wrong).toEqual([]);
    expect(numbers.cusips).toEqual(list);
    const written = Buffer.alloc(bytes.length);
    for (let n = 0; n < list.length; n++) numbers.writeCusip(n, written, 9 * n);
    expect(written.equals(bytes)).toBe(true);
  });

  it('writes back every CUSIP after thousands of keys outside the alphabet were numbered first', () => {
    const numbers = new CusipNumbers();
    // 3,000 lower-case keys take numbers 0–2,999 with no bytes kept, then CUSIPs come.
    const keys = [
      ...Array.from({ length: 3000 }, (_, i) => `x${String(i).padStart(8, '0')}`),
      ...Array.from({ length: 1100 }, (_, i) => `B${String(i).padStart(8, '0')}`),
    ];
    for (const key of keys) numbers.numberOf(key);
    const written = Buffer.alloc(9 * keys.length);
    for (let n = 0; n < keys.length; n++) numbers.writeCusip(n, written, 9 * n);
    expect(written.toString('latin1')).toBe(keys.join(''));
  });

  it('tells apart CUSIPs that differ in one place, at either end', () => {
    const numbers = new CusipNumbers();
    const keys = ['000000000', '000000001', '100000000', '#########', '@@@@@@@@@', 'ZZZZZZZZZ'];
    const got = keys.map((key) => numbers.numberOf(key));
    expect(got).toEqual([0, 1, 2, 3, 4, 5]);
    // The smallest code (0) and the largest (39⁹ − 1), found again from text and bytes.
    expect(numbers.find('#########')).toBe(3);
    expect(numbers.findAt(Buffer.from('ZZZZZZZZZ', 'latin1'), 0)).toBe(5);
    expect([numbers.codeOf(3), numbers.codeOf(5)]).toEqual([0, 39 ** 9 - 1]);
  });

  // The table answers right whatever its hash; a hash that piles codes together makes it slow.
  it('spreads patterned codes over a table as evenly as random ones would', () => {
    const slots = 1 << 15;
    const patterns: Record<string, number[]> = {
      consecutive: Array.from({ length: 10_000 }, (_, i) => i),
      'steps of 39': Array.from({ length: 10_000 }, (_, i) => 39 * i),
      'steps of 39⁶': Array.from({ length: 10_000 }, (_, i) => 39 ** 6 * i),
      'steps of 2³²': Array.from({ length: 10_000 }, (_, i) => 2 ** 32 * i),
      'steps of 2³² + 1': Array.from({ length: 10_000 }, (_, i) => (2 ** 32 + 1) * i),
      'near 39⁹': Array.from({ length: 10_000 }, (_, i) => 39 ** 9 - 1 - i),
    };
    for (const [pattern, codes] of Object.entries(patterns)) {
      const used = new Set(codes.map((code) => codeHash(code) & (slots - 1))).size;
      // 10,000 random codes in 32,768 slots occupy ~8,600 of them.
      expect(used, pattern).toBeGreaterThan(8_000);
    }
  });
});
