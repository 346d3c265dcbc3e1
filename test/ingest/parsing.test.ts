/** The strict field readers and format parsers the sources share (no database, no network). */

import { describe, expect, it } from 'vitest';
import { FieldError } from '../../src/ingest/core/errors.js';

import { redactUrl } from '../../src/ingest/core/fetcher.js';

import { toFailureRow } from '../../src/ingest/sources/fdic/failures.js';

import { quarterEnds } from '../../src/ingest/sources/fdic/financials.js';

import { inferFrequency, isoLastUpdated, parseFredCsv } from '../../src/ingest/sources/fred-parse.js';

import { recordsOfInput } from '../../src/ingest/sources/records.js';

import { number, parseDate, stateCode } from '../../src/ingest/sources/values.js';

describe('upstream values', () => {
  it('reads every date style the upstreams use, and only real calendar days', () => {
    expect(parseDate('06/22/2026')).toBe('2026-06-22');
    expect(parseDate('5/28/1934')).toBe('1934-05-28');
    expect(parseDate('20231231')).toBe('2023-12-31');
    expect(parseDate(20240331)).toBe('2024-03-31');
    expect(parseDate('2026-06-23T00:00:00')).toBe('2026-06-23');
    expect(parseDate('28-Jul-23')).toBe('2023-07-28');
    expect(parseDate('13-Oct-00')).toBe('2000-10-13');
    expect(parseDate('02/30/2020')).toBeUndefined();
    expect(parseDate('20231331')).toBeUndefined();
    expect(parseDate('yesterday')).toBeUndefined();
  });

  it('never turns junk into a number', () => {
    expect(number({ A: '47496000.0' }, 'A')).toBe(47496000);
    expect(number({ A: '1,234' }, 'A')).toBe(1234);
    expect(number({ A: '' }, 'A')).toBeNull();
    expect(number({}, 'A')).toBeNull();
    for (const bad of ['abc', 'NaN', 'Infinity', '1.2.3']) {
      expect(() => number({ A: bad }, 'A')).toThrow(FieldError);
    }
  });

  it('maps full state names (any case) to USPS codes and refuses unknown ones', () => {
    expect(stateCode({ STNAME: 'District Of Columbia' }, 'STALP', 'STNAME')).toBe('DC');
    expect(stateCode({ STNAME: 'U.S. Virgin Islands' }, 'STALP', 'STNAME')).toBe('VI');
    expect(stateCode({ STNAME: 'TEXAS' }, 'STALP', 'STNAME')).toBe('TX');
    expect(stateCode({ STALP: 'oh', STNAME: 'Ohio' }, 'STALP', 'STNAME')).toBe('OH');
    expect(() => stateCode({ STNAME: 'Atlantis' }, 'STALP', 'STNAME')).toThrow(FieldError);
  });

  it('maps a payout failure to null acquirer and null cert', () => {
    const row = toFailureRow({
      NAME: 'X BANK',
      FAILDATE: '1/3/1935',
      BIDNAME: '0',
      PSTALP: 'NJ',
      QBFASSET: 2305,
    });
    expect(row).toMatchObject({
      cert: null,
      acquiring_institution: null,
      closing_date: '1935-01-03',
      total_assets: 2305,
    });
    expect(() => toFailureRow({ NAME: 'X', FAILDATE: 'soon' })).toThrow('invalid FAILDATE');
  });
});

describe('formats', () => {
  it('reads BankFind JSON (nested data[].data), plain arrays and CSV with any header case', () => {
    const nested = Buffer.from('{"meta":{"total":1},"data":[{"data":{"CERT":628,"NAME":"A"},"score":0}]}');
    expect(recordsOfInput(nested, 'x')).toEqual([{ CERT: 628, NAME: 'A' }]);
    expect(recordsOfInput(Buffer.from('[{"cert":1}]'), 'x')).toEqual([{ CERT: 1 }]);
    expect(recordsOfInput(Buffer.from('\uFEFF"cert","Name "\n"7","B"\n'), 'x')).toEqual([
      { CERT: '7', NAME: 'B' },
    ]);
  });

  it('reads both fredgraph.csv generations, omitting "." and empty values', () => {
    const counts = { missing: 0, invalid: [] as string[] };
    const legacy = parseFredCsv('DATE,DGS10\n2020-12-24,0.94\n2020-12-25,.\n', counts);
    const current = parseFredCsv('observation_date,T10Y2Y\r\n2025-12-25,\r\n2025-12-26,0.68', counts);
    expect(legacy).toEqual([
      { id: 'DGS10', title: null, units: null, observations: [{ date: '2020-12-24', value: 0.94 }] },
    ]);
    expect(current[0]!.observations).toEqual([{ date: '2025-12-26', value: 0.68 }]);
    expect(counts).toEqual({ missing: 2, invalid: [] });
    expect(() => parseFredCsv('when,what\n', counts)).toThrow(/not a fredgraph.csv/);
  });

  it('infers frequencies and normalises FRED timestamps', () => {
    const monthly = ['2024-01-01', '2024-02-01', '2024-03-01', '2024-04-01'].map((date) => ({
      date,
      value: 1,
    }));
    expect(inferFrequency(monthly)).toBe('Monthly');
    expect(isoLastUpdated('2026-05-02 07:46:10-05')).toBe('2026-05-02T07:46:10-05:00');
  });

  it('lists quarter ends and redacts keys from URLs', () => {
    expect(quarterEnds('2000-03-31', '2000-12-31')).toEqual([
      '2000-03-31',
      '2000-06-30',
      '2000-09-30',
      '2000-12-31',
    ]);
    expect(quarterEnds('2024-02-15', '2024-09-29')).toEqual(['2024-03-31', '2024-06-30']);
    expect(redactUrl('https://x/y?series_id=A&api_key=secret&b=1')).toBe(
      'https://x/y?series_id=A&api_key=***&b=1',
    );
  });
});
