/**
 * packSecurityPositions (a quarter's positions packed per security, in the holders list's order)
 * against the generic packer, which sorts by comparing CIKs as texts and codes by rank: the same bytes
 * for every security, with many ties in value between managers and between one manager's share
 * types and put/calls.
 */
import { describe, expect, it } from 'vitest';
import { CODE_RANK, packPositions, SECURITY_POSITIONS } from '../../src/holdings/portfolio-pack.js';
import {
  packSecurityPositions,
  SecurityPositions,
} from '../../src/ingest/sources/sec/holdings/derive/security-positions.js';
import { random } from '../helpers/random.js';

interface Held {
  cik: string;
  code: number;
  value: number;
  shares: number;
}

describe('security positions packed per security', () => {
  it('are what the generic packer gives, ties in value included', () => {
    const next = random(17);
    const cusips = Array.from({ length: 300 }, (_, s) => `S${String(s).padStart(8, '0')}`);
    const ciks = Array.from({ length: 400 }, (_, m) => String(1000 + m * 37).padStart(10, '0'));
    const gathered = new SecurityPositions();
    const bySecurity = new Map<number, Held[]>();
    for (const cik of ciks) {
      gathered.startManager(cik);
      // A manager's positions as the derivation gives them: by CUSIP, then by code rank.
      const held: { s: number; code: number }[] = [];
      for (let s = 0; s < cusips.length; s++) {
        if (next() > 0.2) continue;
        for (let code = 0; code < 6; code++) if (code === 0 || next() < 0.3) held.push({ s, code });
      }
      held.sort((a, b) => a.s - b.s || (CODE_RANK[a.code] as number) - (CODE_RANK[b.code] as number));
      for (const { s, code } of held) {
        const value = next() < 0.7 ? Math.floor(next() * 3) * 100 : next() * 1e6;
        const shares = Math.floor(next() * 1e4);
        gathered.add(s, code, value, shares);
        bySecurity.set(s, [...(bySecurity.get(s) ?? []), { cik, code, value, shares }]);
      }
    }
    const packed = new Map<string, Uint8Array>();
    for (const batch of packSecurityPositions(gathered.take('2026-Q3', cusips)))
      if (batch.table === 'security_positions')
        for (const row of batch.rows) packed.set(row.cusip, row.positions);
    expect(packed.size).toBe(bySecurity.size);
    let ties = 0;
    for (const [s, held] of bySecurity) {
      const want = packPositions(SECURITY_POSITIONS, {
        count: held.length,
        key: (i) => (held[i] as Held).cik,
        code: (i) => (held[i] as Held).code,
        value: (i) => (held[i] as Held).value,
        shares: (i) => (held[i] as Held).shares,
      });
      expect(Buffer.compare(packed.get(cusips[s] as string) as Uint8Array, want)).toBe(0);
      const values = held.map((h) => h.value);
      ties += values.length - new Set(values).size;
    }
    expect(ties).toBeGreaterThan(1000);
  });
});
