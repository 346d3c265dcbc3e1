/** Demo 13F filers: identity, size, activity pattern over the quarters, and a live portfolio. */
import {
  FIRM_SUFFIXES,
  FIRM_WORDS,
  FOREIGN_PLACES,
  firmName,
  ISSUER_WORDS,
  SURNAMES,
  US_PLACES,
} from './names.js';
import type { Rng } from './random.js';

export interface DemoManager {
  cik: string;
  name: string;
  city: string;
  state: string | null;
  country: string;
  /** Portfolio value aimed at when the portfolio is first built, USD. */
  aum: number;
  targetPositions: number;
  /** Per quarter: 'HR' (holdings report), 'NT' (notice) or null (no filing). */
  schedule: ('HR' | 'NT' | null)[];
  tradesOptions: boolean;
  /** Security index → shares (or principal) held after the last report. */
  holdings: Map<number, number>;
}

export interface ManagerScale {
  count: number;
  medianPositions: number;
  maxPositions: number;
}

function schedule(rng: Rng, quarters: number): ('HR' | 'NT' | null)[] {
  const start = rng.chance(0.85) ? 0 : rng.int(1, quarters - 2);
  const end = rng.chance(0.9) ? quarters - 1 : rng.int(start + 1, quarters - 2);
  const plan: ('HR' | 'NT' | null)[] = Array.from({ length: quarters }, (_, q) =>
    q >= start && q <= end ? 'HR' : null,
  );
  if (rng.chance(0.04) && end - start >= 2) plan[rng.int(start + 1, end - 1)] = null;
  if (rng.chance(0.012)) return plan.map((p) => (p ? 'NT' : null));
  if (rng.chance(0.01)) plan[rng.int(start, end)] = 'NT';
  return plan;
}

function name(rng: Rng, used: Set<string>): string {
  for (;;) {
    const surname = rng.chance(0.3) ? `${rng.pick(SURNAMES)} & ${rng.pick(SURNAMES)}` : rng.pick(SURNAMES);
    const second = rng.chance(0.5) ? rng.pick(ISSUER_WORDS) : '';
    const candidate = firmName({
      surname,
      second,
      firm: rng.pick(FIRM_WORDS),
      suffix: rng.pick(FIRM_SUFFIXES),
    });
    if (!used.has(candidate)) {
      used.add(candidate);
      return candidate;
    }
  }
}

export function generateManagers(rng: Rng, scale: ManagerScale, quarters: number): DemoManager[] {
  const ciks = new Set<string>();
  const names = new Set<string>();
  const managers: DemoManager[] = [];
  for (let i = 0; i < scale.count; i++) {
    let cik: string;
    do cik = String(rng.int(1_000_000, 2_099_999)).padStart(10, '0');
    while (ciks.has(cik));
    ciks.add(cik);
    const foreign = rng.chance(0.08);
    const [city, state] = foreign ? [...rng.pick(FOREIGN_PLACES)] : rng.pick(US_PLACES);
    const aum = rng.logNormal(300e6, 1.5);
    // Bigger managers hold more names: ~10 at the median, hundreds to thousands at the top.
    const sized = scale.medianPositions * (aum / 300e6) ** 0.55 * rng.logNormal(1, 0.5);
    managers.push({
      cik,
      name: name(rng, names),
      city,
      state: foreign ? null : state,
      country: foreign ? state : 'US',
      aum,
      targetPositions: Math.max(3, Math.min(scale.maxPositions, Math.round(sized))),
      schedule: schedule(rng, quarters),
      tradesOptions: rng.chance(0.12),
      holdings: new Map(),
    });
  }
  return managers;
}
