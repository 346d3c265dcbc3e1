/**
 * The binary form of raw information-table records gives back every value exactly as it was
 * encoded: texts in any script and of any length, nulls, whole numbers up to 2^52 and beyond,
 * fractions, negatives, and share types or put/call texts the parser would have normalised.
 */
import { describe, expect, it } from 'vitest';
import { codeOf } from '../../src/holdings/portfolio-pack.js';
import {
  decodeInfoRows,
  FORMAT,
  InfoRowEncoder,
  type InfoRowFields,
} from '../../src/ingest/sources/sec/holdings/info-row-codec.js';
import type { RowFields } from '../../src/ingest/sources/sec/row-fields.js';
import { TextColumn } from '../../src/ingest/sources/sec/text-column.js';

// biome-ignore format: one row a line
const ROWS: InfoRowFields[] = [
  ['037833100', 'APPLE INC', 'COM', 12_345_678, 1000, 'SH', null, 'SOLE', 1000, 0, 0],
  ['594918104', 'MICROSOFT CORP', null, 0, 5, 'PRN', 'PUT', 'DFND', null, null, null],
  ['88160R101', 'TESLA INC', 'COM', 2 ** 52, 2 ** 52 + 2, 'SH', 'CALL', 'OTR', 2 ** 53, 1, 127],
  ['12345678X', 'Ünïcode "quoted" \\ issuer — 株式会社', 'CL A', 1.5, -3, 'SH', 'Call', 'Sole', -0.25, 128, 16384],
  ['00000000A', 'X'.repeat(300), 'Y'.repeat(20_000), 9_007_199_254_740_991, 1e300, 'prn', 'put', null, 0, 0, 0],
  ['11111111B', '', '', 3, 4, ' SH ', null, '', 2_097_152, 268_435_456, 34_359_738_368],
];

function encode(rows: readonly InfoRowFields[]): Buffer {
  const encoder = new InfoRowEncoder();
  for (const row of rows) encoder.addFields(row);
  expect(encoder.count).toBe(rows.length);
  return encoder.finish();
}

describe('information-table record codec', () => {
  it('round-trips every field exactly', () => {
    const bytes = encode(ROWS);
    expect(bytes[0]).toBe(FORMAT);
    expect(decodeInfoRows(bytes)).toEqual(ROWS);
  });

  it('encodes rows as the parser hands them over (codes, texts as UTF-8) as addFields does', () => {
    // biome-ignore format: one row a line
    const rows: InfoRowFields[] = [...ROWS.slice(0, 3),
      ['12345678X', 'Ünïcode "quoted" \\ issuer — 株式会社', 'CL A', 1.5, -3, 'SH', null, 'Sole', -0.25, 128, 16384]];
    const texts = new TextColumn();
    for (const row of rows) for (const text of [row[1], row[2], row[7]]) texts.add(text);
    const taken = texts.take();
    const fields: RowFields = {
      cusips: Buffer.from(rows.map((row) => row[0]).join(''), 'latin1'),
      codes: Uint8Array.from(rows, (row) => codeOf(row[5], row[6])),
      values: Float64Array.from(rows, (row) => row[3]),
      shares: Float64Array.from(rows, (row) => row[4]),
      voting: Float64Array.from(rows.flatMap((row) => [row[8], row[9], row[10]].map((v) => v ?? Number.NaN))),
      texts: taken.texts,
      textLengths: taken.lengths,
    };
    const encoder = new InfoRowEncoder();
    let at = 0;
    for (let i = 0; i < rows.length; i++) at = encoder.addParsed(fields, i, at);
    expect(at).toBe(taken.texts.length);
    expect(Buffer.compare(encoder.finish(), encode(rows))).toBe(0);
  });

  it('is smaller than the JSON text it replaces for typical rows', () => {
    // biome-ignore format: one row a line
    const typical: InfoRowFields[] = Array.from({ length: 1000 }, (_, i) => [
      String(100_000_000 + i * 7919).slice(0, 9), `ISSUER NUMBER ${i} INC`, 'COM', 1_000_000 + i * 37, 10_000 + i,
      'SH', null, 'SOLE', 10_000 + i, 0, 0]);
    const binary = encode(typical).length;
    const json = Buffer.byteLength(JSON.stringify(typical));
    expect(binary).toBeLessThan(0.7 * json);
    expect(decodeInfoRows(encode(typical))).toEqual(typical);
  });

  it('keeps a short text whose length prefix makes the buffer grow (any place in the buffer)', () => {
    // biome-ignore format: one row
    const row = (issuer: string): InfoRowFields => ['037833100', issuer, 'A', 1, 1, 'SH', null, 'SOLE', 1, 1, 1];
    for (let padding = 1; padding < 64; padding++) {
      const rows = [row('X'.repeat(padding)), ...Array.from({ length: 300 }, () => row('I'))];
      expect(decodeInfoRows(encode(rows))).toEqual(rows);
    }
  });

  it('refuses values of the wrong type instead of converting them', () => {
    // biome-ignore format: one row
    const row = ['037833100', 'X', null, '12', 1, 'SH', null, null, null, null, null] as unknown as InfoRowFields;
    expect(() => encode([row])).toThrow(/number expected, got "12"/);
    expect(() =>
      encode([['037833100', 7, null, 1, 1, 'SH', null, null, null, null, null] as unknown as InfoRowFields]),
    ).toThrow(/text expected/);
  });

  it('refuses a record in another format and one cut short', () => {
    expect(() => decodeInfoRows(Buffer.from('[["037833100"]]'))).toThrow(/regdata migrate/);
    expect(() => decodeInfoRows('[["037833100"]]' as unknown as Uint8Array)).toThrow(/regdata migrate/);
    const bytes = encode(ROWS.slice(0, 1));
    expect(() => decodeInfoRows(bytes.subarray(0, bytes.length - 1))).toThrow(/cut short/);
  });

  it('refuses a CUSIP that is not 9 ASCII characters', () => {
    const row = (cusip: string): InfoRowFields => [
      cusip,
      'X',
      null,
      1,
      1,
      'SH',
      null,
      null,
      null,
      null,
      null,
    ];
    expect(() => encode([row('12345678')])).toThrow(/not 9 characters/);
    expect(() => encode([row('12345678Ü')])).toThrow(/not ASCII/);
  });
});
