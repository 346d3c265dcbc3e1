import { describe, expect, it } from 'vitest';
import { padCik, quarterOfDate } from '../../src/holdings/identifiers.js';
import {
  type FilingHeader,
  resolveManagerQuarter,
} from '../../src/ingest/sources/sec/holdings/derive/index.js';

const filing = (
  accession: string,
  date: string,
  form: string,
  amendment: string | null = null,
): FilingHeader => ({
  accession_number: accession,
  cik: '0000000001',
  quarter: '2025-Q4',
  filing_date: date,
  form_type: form,
  amendment_type: amendment,
});

describe('resolveManagerQuarter', () => {
  it('uses the latest original and ignores notices', () => {
    const r = resolveManagerQuarter([
      filing('a', '2026-02-10', '13F-HR'),
      filing('b', '2026-02-12', '13F-HR'),
      filing('n', '2026-02-01', '13F-NT'),
    ]);
    expect(r?.base.accession_number).toBe('b');
    expect(r?.additions).toEqual([]);
  });

  it('applies NEW HOLDINGS on top and lets a later RESTATEMENT replace everything', () => {
    const added = resolveManagerQuarter([
      filing('a', '2026-02-10', '13F-HR'),
      filing('c', '2026-03-01', '13F-HR/A', 'NEW HOLDINGS'),
    ]);
    expect(added?.base.accession_number).toBe('a');
    expect(added?.additions.map((f) => f.accession_number)).toEqual(['c']);
    expect(added?.latest.form_type).toBe('13F-HR/A');
    const restated = resolveManagerQuarter([
      filing('a', '2026-02-10', '13F-HR'),
      filing('c', '2026-03-01', '13F-HR/A', 'NEW HOLDINGS'),
      filing('d', '2026-04-01', '13F-HR/A', 'RESTATEMENT'),
      filing('e', '2026-05-01', '13F-HR/A', 'NEW HOLDINGS'),
    ]);
    expect(restated?.base.accession_number).toBe('d');
    expect(restated?.additions.map((f) => f.accession_number)).toEqual(['e']);
  });

  it('has no quarter for notices only, and ignores amendments older than the latest original', () => {
    expect(resolveManagerQuarter([filing('n', '2026-02-01', '13F-NT')])).toBeNull();
    const r = resolveManagerQuarter([
      filing('x', '2026-02-10', '13F-HR/A', 'NEW HOLDINGS'),
      filing('a', '2026-02-11', '13F-HR'),
    ]);
    expect(r?.base.accession_number).toBe('a');
    expect(r?.additions).toEqual([]);
  });
});

describe('identifiers', () => {
  it('pads CIKs and names quarters', () => {
    expect(padCik('1067983')).toBe('0001067983');
    expect(quarterOfDate('2024-12-31')).toBe('2024-Q4');
    expect(quarterOfDate('2025-03-31')).toBe('2025-Q1');
  });
});
