/**
 * The demo security universe: CUSIPs with valid check digits, issuer names, classes, power-law
 * popularity (a handful of mega-caps in most portfolios) and a price path per quarter.
 */
import { withCheckDigit } from './cusip.js';
import { ISSUER_INDUSTRIES, ISSUER_SUFFIXES, ISSUER_WORDS } from './names.js';
import type { Rng } from './random.js';

export interface DemoSecurity {
  cusip: string;
  issuer: string;
  title_of_class: string;
  ticker: string | null;
  /** `PRN` for notes (principal amounts, price per 100 of principal). */
  share_type: 'SH' | 'PRN';
  /** Price in USD per share (per 100 USD principal for notes), one per quarter. */
  prices: number[];
}

export interface Universe {
  securities: DemoSecurity[];
  /** Cumulative popularity weights for sampling by binary search. */
  cumulative: Float64Array;
  /** The mega-caps most managers hold. */
  megaCaps: number;
  /** Stock splits: at quarter number `q`, every holding of security `index` is multiplied by `factor`. */
  splits: DemoSplit[];
}

export interface DemoSplit {
  index: number;
  q: number;
  /** Shares after per share before: 2 (2-for-1) or 0.1 (1-for-10 reverse). */
  factor: number;
}

/**
 * A 2-for-1 split of the third mega-cap in the last quarter and a 1-for-10 reverse split of a
 * popular listed stock in the one before, so the split-aware changes have both cases to show.
 * Prices from the split on are divided by the factor; no random draw is used.
 */
function splitsOf(securities: DemoSecurity[], quarters: number): DemoSplit[] {
  const reverse = securities.findIndex(
    (s, index) => index >= 20 && s.share_type === 'SH' && s.ticker !== null,
  );
  const splits = [
    { index: 2, q: quarters - 1, factor: 2 },
    { index: reverse, q: quarters - 2, factor: 0.1 },
  ].filter((split) => split.q > 0 && split.index >= 0);
  for (const split of splits) {
    const prices = (securities[split.index] as DemoSecurity).prices;
    for (let q = split.q; q < prices.length; q++) prices[q] = (prices[q] as number) / split.factor;
  }
  return splits;
}

const ALNUM = '0123456789ABCDEFGHJKLMNPQRSTUVWXYZ';

function issuerCode(rng: Rng, used: Set<string>): string {
  for (;;) {
    let code = String(rng.int(10000, 99999));
    code += ALNUM[rng.int(0, ALNUM.length - 1)];
    if (!used.has(code)) {
      used.add(code);
      return code;
    }
  }
}

function issuerName(rng: Rng, index: number): string {
  const base = `${rng.pick(ISSUER_WORDS)} ${rng.pick(ISSUER_INDUSTRIES)}`.toUpperCase();
  // A roman-ish suffix keeps names distinct without looking numbered.
  const tag =
    index < 400
      ? ''
      : ` ${rng.pick(['AMERICA', 'GLOBAL', 'INTL', 'US', 'NEW', 'WORLD', 'HLDGS', 'PARTNERS'])}`;
  return `${base}${tag} ${rng.pick(ISSUER_SUFFIXES)}`;
}

function ticker(rng: Rng, used: Set<string>): string | null {
  if (rng.chance(0.25)) return null;
  for (let attempt = 0; attempt < 20; attempt++) {
    let t = '';
    for (let i = rng.int(2, 4); i > 0; i--) t += String.fromCharCode(65 + rng.int(0, 25));
    if (!used.has(t)) {
      used.add(t);
      return t;
    }
  }
  return null;
}

function pricePath(rng: Rng, start: number, quarters: number, market: number[], note: boolean): number[] {
  const prices = [start];
  for (let q = 1; q < quarters; q++) {
    const previous = prices[q - 1] as number;
    const move = note ? rng.normal(0, 0.015) : (market[q] as number) + rng.normal(-0.005, 0.1);
    prices.push(Math.max(note ? 50 : 0.5, previous * Math.exp(move)));
  }
  return prices;
}

export function generateUniverse(rng: Rng, count: number, quarters: number): Universe {
  const usedCodes = new Set<string>();
  const usedTickers = new Set<string>();
  const market = Array.from({ length: quarters }, () => rng.normal(0.01, 0.05));
  const securities: DemoSecurity[] = [];
  const megaCaps = 12;
  while (securities.length < count) {
    const index = securities.length;
    const code = issuerCode(rng, usedCodes);
    const issuer = issuerName(rng, index);
    const note = index > 100 && rng.chance(0.04);
    const mega = index < megaCaps;
    const start = note ? rng.logNormal(98, 0.04) : mega ? rng.logNormal(300, 0.6) : rng.logNormal(35, 1.0);
    const base = {
      issuer,
      ticker: note ? null : ticker(rng, usedTickers),
      share_type: (note ? 'PRN' : 'SH') as 'SH' | 'PRN',
      prices: pricePath(rng, start, quarters, market, note),
    };
    if (note) {
      const coupon = (rng.int(50, 800) / 100).toFixed(3);
      const cusip = withCheckDigit(`${code}A${ALNUM[rng.int(10, ALNUM.length - 1)]}`);
      securities.push({
        ...base,
        cusip,
        title_of_class: `NOTE ${coupon}% ${rng.int(1, 12)}/${rng.int(1, 28)}`,
      });
      continue;
    }
    securities.push({
      ...base,
      cusip: withCheckDigit(`${code}10`),
      title_of_class: rng.pick(['COM', 'COM', 'COM', 'SHS', 'COM NEW', 'SPONSORED ADR']),
    });
    // Some issuers have a second share class.
    if (!mega && rng.chance(0.03) && securities.length < count) {
      securities.push({
        ...base,
        ticker: null,
        cusip: withCheckDigit(`${code}20`),
        title_of_class: 'CL B',
        prices: base.prices.map((p) => p * 0.97),
      });
    }
  }
  const cumulative = new Float64Array(securities.length);
  let total = 0;
  for (let i = 0; i < securities.length; i++) {
    total += 1 / (i + 4) ** 1.05;
    cumulative[i] = total;
  }
  return { securities, cumulative, megaCaps, splits: splitsOf(securities, quarters) };
}

/** A security index drawn by popularity. */
export function drawSecurity(rng: Rng, universe: Universe): number {
  const { cumulative } = universe;
  const target = rng.next() * (cumulative[cumulative.length - 1] as number);
  let low = 0;
  let high = cumulative.length - 1;
  while (low < high) {
    const mid = (low + high) >> 1;
    if ((cumulative[mid] as number) < target) low = mid + 1;
    else high = mid;
  }
  return low;
}
