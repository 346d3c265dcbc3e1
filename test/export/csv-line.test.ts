/** The bulk export's CSV encoder, read back by an independent parser (csv-parse). */
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import type { ExportColumn } from '../../src/export/types.js';
import { csvEncoder, csvHeader } from '../../src/export/writers/csv-line.js';

const COLUMNS: ExportColumn[] = [
  { name: 'text', type: 'VARCHAR', unit: null },
  { name: 'amount', type: 'DOUBLE', unit: 'thousands of USD' },
  { name: 'count', type: 'BIGINT', unit: 'count' },
  { name: 'flag', type: 'BOOLEAN', unit: null },
];

describe('the bulk CSV encoder', () => {
  it('writes RFC 4180 that csv-parse reads back value for value, null apart from the empty string', () => {
    const rows = [
      ['plain', 1.5, 3, true],
      ['comma, and "quotes"', -0.000123, '9007199254740993', false],
      ['line\nbreak\r\nand é', 1e21, null, 1],
      ['', null, 0, null],
      [null, 61524627.12345679, 12, 0],
    ];
    const text = csvHeader(COLUMNS) + csvEncoder(COLUMNS)(rows);
    const parsed = parse(text, { columns: true, relax_quotes: false, cast: false, quote: '"' }) as Record<
      string,
      string
    >[];
    expect(parsed.map((r) => r.text)).toEqual([
      'plain',
      'comma, and "quotes"',
      'line\nbreak\r\nand é',
      '',
      '',
    ]);
    expect(parsed.map((r) => Number(r.amount))).toEqual([1.5, -0.000123, 1e21, 0, 61524627.12345679]);
    expect(parsed.map((r) => r.count)).toEqual(['3', '9007199254740993', '', '0', '12']);
    expect(parsed.map((r) => r.flag)).toEqual(['true', 'false', 'true', '', 'false']);
    // A null is an empty unquoted field, the empty string a quoted one.
    expect(text.split('\n').slice(-3, -1)).toEqual(['"",,0,', ',61524627.12345679,12,false']);
  });
});
