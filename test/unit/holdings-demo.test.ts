import type { Insertable } from 'kysely';
import { describe, expect, it } from 'vitest';
import { cusipCheckDigit, isValidCusip } from '../../src/demo/holdings/cusip.js';
import { generateQuarter, resetAccessions } from '../../src/demo/holdings/filings.js';
import { generateManagers } from '../../src/demo/holdings/managers.js';
import { Rng } from '../../src/demo/holdings/random.js';
import { generateUniverse } from '../../src/demo/holdings/universe.js';
import type { Filings13fTable, InfoRow13f } from '../../src/holdings/tables.js';

describe('holdings demo building blocks', () => {
  it('computes CUSIP check digits like the real ones', () => {
    // Apple 037833100, Microsoft 594918104, NVIDIA 67066G104, Alphabet 02079K305.
    for (const cusip of ['037833100', '594918104', '67066G104', '02079K305', '88160RAG6']) {
      expect(cusipCheckDigit(cusip.slice(0, 8))).toBe(cusip[8]);
      expect(isValidCusip(cusip)).toBe(true);
    }
    expect(isValidCusip('037833101')).toBe(false);
  });

  it('builds a deterministic universe of unique, valid CUSIPs with evolving prices', () => {
    const a = generateUniverse(new Rng(7), 5000, 8);
    const b = generateUniverse(new Rng(7), 5000, 8);
    expect(a.securities.map((s) => s.cusip)).toEqual(b.securities.map((s) => s.cusip));
    expect(a.securities).toHaveLength(5000);
    expect(new Set(a.securities.map((s) => s.cusip)).size).toBe(5000);
    expect(a.securities.every((s) => isValidCusip(s.cusip))).toBe(true);
    expect(a.securities.some((s) => s.share_type === 'PRN')).toBe(true);
    expect(a.securities.every((s) => s.prices.length === 8 && s.prices.every((p) => p > 0))).toBe(true);
    expect(a.securities.some((s) => s.prices[0] !== s.prices[7])).toBe(true);
  });

  it('gives managers varied schedules: late starters, stoppers, notices, non-US', () => {
    const managers = generateManagers(
      new Rng(11),
      { count: 1500, medianPositions: 18, maxPositions: 2500 },
      8,
    );
    expect(new Set(managers.map((m) => m.cik)).size).toBe(1500);
    expect(managers.every((m) => /^\d{10}$/.test(m.cik))).toBe(true);
    expect(managers.some((m) => m.schedule[0] === null && m.schedule[7] === 'HR')).toBe(true);
    expect(managers.some((m) => m.schedule[0] === 'HR' && m.schedule[7] === null)).toBe(true);
    expect(managers.some((m) => m.schedule.includes('NT'))).toBe(true);
    expect(managers.some((m) => m.country !== 'US' && m.state === null)).toBe(true);
  });
});

describe('holdings demo filings', () => {
  async function generate(seed: number) {
    resetAccessions();
    const universe = generateUniverse(Rng.derive(seed, 'universe'), 800, 3);
    const managers = generateManagers(
      Rng.derive(seed, 'managers'),
      { count: 400, medianPositions: 10, maxPositions: 300 },
      3,
    );
    const filings: Insertable<Filings13fTable>[] = [];
    const rows: InfoRow13f[] = [];
    const sink = {
      filing: (f: Insertable<Filings13fTable>) => void filings.push(f),
      rows: async (r: InfoRow13f[]) => void rows.push(...r),
    };
    const rng = Rng.derive(seed, 'filings');
    for (const [q, quarter] of ['2026-Q1', '2026-Q2', '2026-Q3'].entries())
      await generateQuarter(rng, managers, universe, q, quarter, sink);
    return { filings, rows };
  }

  it('is deterministic and has every kind of filing a real quarter has', async () => {
    const a = await generate(5);
    const b = await generate(5);
    expect(b).toEqual(a);
    const forms = new Set(a.filings.map((f) => `${f.form_type} ${f.amendment_type ?? ''}`.trim()));
    expect(forms).toEqual(new Set(['13F-HR', '13F-NT', '13F-HR/A RESTATEMENT', '13F-HR/A NEW HOLDINGS']));
    expect(new Set(a.filings.map((f) => f.accession_number)).size).toBe(a.filings.length);
    // Filed after 2023-01-03, so VALUE is whole dollars; PRN notes and options are present.
    expect(a.filings.every((f) => String(f.filing_date) >= '2023-01-03')).toBe(true);
    expect(a.rows.every((r) => Number.isInteger(r.value))).toBe(true);
    expect(a.rows.some((r) => r.share_type === 'PRN')).toBe(true);
    expect(a.rows.some((r) => r.put_call === 'Put') && a.rows.some((r) => r.put_call === 'Call')).toBe(true);
    expect(a.rows.some((r) => r.investment_discretion === 'DFND')).toBe(true);
    expect((await generate(6)).rows).not.toEqual(a.rows);
  });
});
