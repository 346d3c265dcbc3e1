/**
 * FilingPositions (a load's per-filing sums in typed arrays) against the derivation's PositionSums
 * on the same rows: the same positions, in the same order, with the same doubles, filing after
 * filing through one accumulator.
 */
import { describe, expect, it } from 'vitest';
import { codeOf, putCallOf, shareTypeOf } from '../../src/holdings/portfolio-pack.js';
import { CusipNumbers } from '../../src/ingest/sources/sec/holdings/derive/cusip-numbers.js';
import { PositionSums } from '../../src/ingest/sources/sec/holdings/derive/positions.js';
import { FilingPositions } from '../../src/ingest/sources/sec/holdings/filing-positions.js';

/** A deterministic generator, so a failure reproduces. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

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
