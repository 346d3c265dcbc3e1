/**
 * jsonListBytes writes an answer's `data` list a few records at a time (src/http/serializer.ts): the
 * bytes must be exactly JSON.stringify's, whatever the records hold.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonListBytes } from '../../src/http/serializer.js';

const utf8 = (body: unknown) => Buffer.from(JSON.stringify(body));

describe('jsonListBytes', () => {
  it('gives the bytes of JSON.stringify for lists of every length around the chunk size', () => {
    for (const length of [0, 1, 49, 50, 51, 100, 101, 500]) {
      const data = Array.from({ length }, (_, i) => ({
        cert: i,
        // Outside Latin-1 (a two-byte string in V8), Latin-1 and ASCII names, escapes, nulls.
        name: ['Dvořák & Keller Bank', 'Crédit Agricole', 'Plain "Quoted"\nBank', 'Emoji 🏦 Bank'][i % 4],
        roa: i % 3 === 0 ? null : i / 7,
        total_assets: i * 1000,
      }));
      const body = { data, date: '2026-09-30', total: length, limit: 500, offset: 0 };
      expect(jsonListBytes(body).equals(utf8(body)), `${length} records`).toBe(true);
    }
  });

  it('keeps the envelope order and skips undefined members, as JSON.stringify does', () => {
    const body = { total: 2, data: [{ a: 1 }, { b: undefined, c: 'ř' }], next: undefined, date: null };
    expect(jsonListBytes(body).toString()).toBe(JSON.stringify(body));
  });

  it('matches JSON.stringify on arbitrary records', () => {
    fc.assert(
      fc.property(
        fc.array(fc.dictionary(fc.string(), fc.jsonValue()), { maxLength: 130 }),
        fc.jsonValue(),
        (data, extra) => {
          const body = { data, extra };
          expect(jsonListBytes(body).equals(utf8(body))).toBe(true);
        },
      ),
      { numRuns: 300 },
    );
  });
});
