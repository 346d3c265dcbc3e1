/**
 * FilingPositions (a load's per-filing sums in typed arrays) against the derivation's PositionSums
 * on the same rows: the same positions, in the same order, with the same doubles, filing after
 * filing through one accumulator; and each filing's portfolio, packed as it is summed, byte for byte
 * the one the derivation packs from PositionSums' positions (comparing CUSIPs as texts).
 */
import { describe, expect, it } from 'vitest';
import {
  codeOf,
  packPortfolio,
  putCallOf,
  shareTypeOf,
  unpackPortfolio,
} from '../../src/holdings/portfolio-pack.js';
import { CusipNumbers } from '../../src/ingest/sources/sec/holdings/derive/cusip-numbers.js';
import { type Position, PositionSums } from '../../src/ingest/sources/sec/holdings/derive/positions.js';
import { FilingPositions } from '../../src/ingest/sources/sec/holdings/filing-positions.js';
import { FilingSums, FilingSumsBuilder } from '../../src/ingest/sources/sec/holdings/filing-sums.js';
import { random } from '../helpers/random.js';

/** A CUSIP's characters (in any order: the order CUSIPs sort in is the texts'). */
const CHARACTERS = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ*@#';

function cusipsOf(next: () => number, count: number, odd: boolean): string[] {
  return Array.from({ length: count }, (_, i) => {
    const cusip = Array.from({ length: 9 }, () => CHARACTERS[Math.floor(next() * CHARACTERS.length)]).join(
      '',
    );
    // A few outside the alphabet (lower case, a space, too short), as a raw-row CUSIP may be.
    return odd && i % 50 === 7 ? (['abc123456', '12345 789', '1234'][i % 3] ?? cusip) : cusip;
  });
}

describe('a filing summed in typed arrays', () => {
  it('gives PositionSums’ positions, order and values, filing after filing', () => {
    const next = random(11);
    const numbers = new CusipNumbers();
    const positions = new FilingPositions();
    for (const [filing, odd] of [
      [0, false],
      [1, true],
      [2, false],
      [3, true],
      [4, false],
    ] as const) {
      const cusips = cusipsOf(next, 40 + filing * 300, odd);
      const sums = new PositionSums('2025-Q4', '1');
      for (let row = 0; row < 5 * cusips.length; row++) {
        // Equity mostly; every other code too, and the same (CUSIP, code) many times.
        const cusip = cusips[Math.floor(next() * next() * cusips.length)] as string;
        const code = next() < 0.7 ? 0 : Math.floor(next() * 6);
        const dollars = next() < 0.5 ? Math.floor(next() * 1e9) : next() * 1e6;
        const shares = Math.floor(next() * 1e7);
        sums.add(cusip, shareTypeOf(code), putCallOf(code), dollars, shares);
        positions.add(numbers.numberOf(cusip), code, dollars, shares);
      }
      const got: unknown[] = [];
      positions.drain(numbers, (cusip, code, value, shares) => got.push({ cusip, code, value, shares }));
      const want = sums.positions().map((p) => ({
        cusip: p.cusip,
        code: codeOf(p.share_type, p.put_call),
        value: p.value,
        shares: p.shares,
      }));
      expect(want.length).toBeGreaterThan(cusips.length / 2);
      expect(got).toEqual(want);
    }
  });
});

describe('a filing’s portfolio packed as it is summed', () => {
  it('is the portfolio the derivation packs from PositionSums, ties in value included', () => {
    const next = random(29);
    const numbers = new CusipNumbers();
    const positions = new FilingPositions();
    const builder = new FilingSumsBuilder();
    const wanted = new Map<string, Buffer>();
    for (let filing = 0; filing < 6; filing++) {
      const accession = `0000000000-25-00000${filing}`;
      // Outside the alphabet too (lower case, a space): the texts' order still decides.
      const cusips = cusipsOf(next, 30 + 200 * filing, filing % 2 === 1).filter((c) => c.length === 9);
      const sums = new PositionSums('2025-Q4', '1');
      for (let row = 0; row < 3 * cusips.length; row++) {
        const cusip = cusips[Math.floor(next() * cusips.length)] as string;
        const code = next() < 0.6 ? 0 : Math.floor(next() * 6);
        // Few distinct values, so that many positions tie and their order is the key's and code's.
        const dollars = next() < 0.6 ? 1000 * Math.floor(next() * 4) : Math.floor(next() * 1e9);
        const shares = Math.floor(next() * 1e5);
        sums.add(cusip, shareTypeOf(code), putCallOf(code), dollars, shares);
        positions.add(numbers.numberOf(cusip), code, dollars, shares);
      }
      const derived = sums.positions();
      wanted.set(
        accession,
        packPortfolio({
          count: derived.length,
          cusip: (i) => (derived[i] as Position).cusip,
          code: (i) => codeOf((derived[i] as Position).share_type, (derived[i] as Position).put_call),
          value: (i) => (derived[i] as Position).value,
          shares: (i) => (derived[i] as Position).shares,
        }),
      );
      builder.addFiling(accession, positions, numbers);
    }
    const sums = new FilingSums();
    sums.add(builder.take());
    let ties = 0;
    for (const [accession, want] of wanted) {
      const got = sums.view(accession)?.portfolio;
      expect(got && Buffer.compare(got, want)).toBe(0);
      const { values } = unpackPortfolio(want);
      for (let i = 1; i < values.length; i++) if (values[i] === values[i - 1]) ties++;
    }
    expect(ties).toBeGreaterThan(100);
  });
});
