/**
 * A small deterministic PRNG (mulberry32) with the distributions the demo needs. `fork(label)` gives
 * an independent stream per part, so changing one generator does not shift the others.
 */

function hashString(text: string, seed: number): number {
  let h = seed ^ 0x9e3779b9;
  for (let i = 0; i < text.length; i++) {
    h = Math.imul(h ^ text.charCodeAt(i), 0x85ebca6b);
    h = (h << 13) | (h >>> 19);
  }
  return (h ^ (h >>> 16)) >>> 0;
}

export class Random {
  private state: number;
  private spareNormal: number | null = null;

  constructor(readonly seed: number) {
    this.state = seed >>> 0;
  }

  /** An independent stream derived from this seed and a label. */
  fork(label: string): Random {
    return new Random(hashString(label, this.seed));
  }

  /** Uniform in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  uniform(min: number, max: number): number {
    return min + (max - min) * this.next();
  }

  /** Integer in [min, max], both inclusive. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  /** Standard normal (Box–Muller, both values used). */
  normal(mean = 0, sd = 1): number {
    if (this.spareNormal !== null) {
      const value = this.spareNormal;
      this.spareNormal = null;
      return mean + sd * value;
    }
    const u = 1 - this.next();
    const v = this.next();
    const r = Math.sqrt(-2 * Math.log(u));
    this.spareNormal = r * Math.sin(2 * Math.PI * v);
    return mean + sd * r * Math.cos(2 * Math.PI * v);
  }

  logNormal(mu: number, sigma: number): number {
    return Math.exp(this.normal(mu, sigma));
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)] as T;
  }

  /** Picks by weight; `weights[i]` belongs to `items[i]`. */
  weighted<T>(items: readonly T[], weights: readonly number[]): T {
    let total = 0;
    for (const w of weights) total += w;
    let target = this.next() * total;
    for (let i = 0; i < items.length; i++) {
      target -= weights[i] as number;
      if (target < 0) return items[i] as T;
    }
    return items[items.length - 1] as T;
  }

  /** Fisher–Yates shuffle in place. */
  shuffle<T>(items: T[]): T[] {
    for (let i = items.length - 1; i > 0; i--) {
      const j = Math.floor(this.next() * (i + 1));
      [items[i], items[j]] = [items[j] as T, items[i] as T];
    }
    return items;
  }
}

/** 10 ** n for the usual decimals: the exponentiation is a hot spot when generating financials. */
const POWERS_OF_TEN = [1, 10, 100, 1_000, 10_000, 100_000, 1_000_000];

/** Rounds to a number of decimals without float noise like 1.0500000000000003. */
export function round(value: number, decimals: number): number {
  const factor = POWERS_OF_TEN[decimals] ?? 10 ** decimals;
  return Math.round(value * factor) / factor;
}
