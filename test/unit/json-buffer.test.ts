import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { JsonBuffer } from '../../src/http/json-buffer.js';

const written = (write: (json: JsonBuffer) => void) => {
  const json = new JsonBuffer(16);
  write(json);
  return json.bytes().toString('utf8');
};

describe('JsonBuffer numbers', () => {
  it('writes a rounded number as JSON.stringify does, for any double and 0–6 decimals', () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true }), fc.integer({ min: 0, max: 6 }), (x, decimals) => {
        const count = Math.round(x * 10 ** decimals);
        expect(written((json) => json.scaled(count, decimals))).toBe(JSON.stringify(count / 10 ** decimals));
      }),
      { numRuns: 20_000 },
    );
  });

  it('writes money and weights of every size as JSON.stringify does', () => {
    const magnitudes = fc
      .integer({ min: -7, max: 16 })
      .chain((e) => fc.double({ min: 0, max: 10 ** e, noNaN: true }));
    fc.assert(
      fc.property(magnitudes, fc.boolean(), (x, negative) => {
        const v = negative ? -x : x;
        expect(written((json) => json.scaled(Math.round(v * 1000), 3))).toBe(
          JSON.stringify(Math.round(v * 1000) / 1000),
        );
        expect(written((json) => json.scaled(Math.round(v * 10_000), 4))).toBe(
          JSON.stringify(Math.round(v * 10_000) / 10_000),
        );
      }),
      { numRuns: 20_000 },
    );
  });

  it('writes any number as JSON.stringify does, non-finite ones as null', () => {
    const cases = [0, -0, 1, -1, 9, 10, 99, 100, 123_456_789, 2 ** 53, 1e15, 1e21, 0.1, 1e-7, NaN, Infinity];
    for (const x of cases) expect(written((json) => json.number(x))).toBe(JSON.stringify(x));
    fc.assert(
      fc.property(fc.oneof(fc.double(), fc.integer(), fc.maxSafeInteger()), (x) => {
        expect(written((json) => json.number(x))).toBe(JSON.stringify(x));
      }),
      { numRuns: 20_000 },
    );
  });

  it('keeps leading zeros of a fraction and drops trailing ones', () => {
    expect(written((json) => json.scaled(50, 3))).toBe('0.05');
    expect(written((json) => json.scaled(-1005, 4))).toBe('-0.1005');
    expect(written((json) => json.scaled(120_000, 4))).toBe('12');
    expect(written((json) => json.scaled(1_234_500, 3))).toBe('1234.5');
  });

  it('grows past its first size and mixes text, bytes and numbers', () => {
    const json = new JsonBuffer(16);
    json.char(0x5b);
    for (let i = 0; i < 5_000; i++) {
      if (i > 0) json.char(0x2c);
      json.raw(Buffer.from('{"n":')).number(i).text(',"s":"é"}');
    }
    json.char(0x5d);
    const parsed = JSON.parse(json.bytes().toString('utf8')) as { n: number; s: string }[];
    expect(parsed).toHaveLength(5_000);
    expect(parsed[4_999]).toEqual({ n: 4_999, s: 'é' });
  });
});
