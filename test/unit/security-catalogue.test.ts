import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type CatalogueEntry,
  recordStartText,
  SecurityCatalogue,
} from '../../src/holdings/security-catalogue.js';
import { JsonBuffer } from '../../src/http/json-buffer.js';

const text = fc.string({ unit: 'binary', maxLength: 40 });
const entry = fc.record({
  cusip: fc.stringMatching(/^[0-9A-Z]{9}$/),
  issuer: text,
  title_of_class: fc.option(text),
  ticker: fc.option(text),
});

const written = (write: (json: JsonBuffer) => JsonBuffer) =>
  write(new JsonBuffer(16)).bytes().toString('utf8');

describe('SecurityCatalogue record starts', () => {
  it('writes each start as its JSON text, in any order and any number of times', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(entry, { selector: (e) => e.cusip, minLength: 1, maxLength: 30 }),
        fc.array(fc.nat(), { minLength: 1, maxLength: 60 }),
        (entries: CatalogueEntry[], picks) => {
          const catalogue = new SecurityCatalogue(entries);
          for (const pick of picks) {
            const id = pick % catalogue.size;
            const { cusip, issuer, ticker } = catalogue.entry(id);
            expect(written((json) => catalogue.writeRecordStart(json, id))).toBe(
              recordStartText(catalogue.entry(id)),
            );
            expect(written((json) => catalogue.writeIdentityStart(json, id))).toBe(
              `${JSON.stringify({ cusip, issuer, ticker }).slice(0, -1)},`,
            );
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('keeps earlier starts intact when its buffer grows past 64 KB', () => {
    const entries = Array.from({ length: 40 }, (_, i) => ({
      cusip: `${String(i).padStart(8, '0')}X`,
      issuer: `${'Ä'.repeat(1000 + i)} 𝔘 ${i}`,
      title_of_class: 'COM',
      ticker: null,
    }));
    const catalogue = new SecurityCatalogue(entries);
    const first = entries.map((_, id) => written((json) => catalogue.writeRecordStart(json, id)));
    const again = entries.map((_, id) => written((json) => catalogue.writeRecordStart(json, id)));
    expect(again).toEqual(first);
    expect(first.map((start) => JSON.parse(`${start}"value":1}`).issuer)).toEqual(
      entries.map((e) => e.issuer),
    );
  });

  it('refuses an id it never gave instead of writing its buffer', () => {
    const catalogue = new SecurityCatalogue([
      { cusip: '037833100', issuer: 'APPLE INC', title_of_class: 'COM', ticker: 'AAPL' },
    ]);
    for (const id of [1, -1, 0.5])
      expect(() => catalogue.writeRecordStart(new JsonBuffer(16), id)).toThrow(RangeError);
    expect(() => new SecurityCatalogue([]).writeIdentityStart(new JsonBuffer(16), 0)).toThrow(RangeError);
  });
});
