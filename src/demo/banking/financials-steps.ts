/**
 * The building blocks of the demo's catalogue plan (financials-plan.ts): what one step reads and
 * writes, splitting a total into parts that sum to it exactly, sums and differences.
 */

export type Range = readonly [number, number];

/** The quarter's values the base model draws (financials.ts); the plan derives the rest from them. */
export interface BaseQuarter {
  /** Net income of the quarter alone (year to date is accumulated from it). */
  netIncome: number;
  noncurrentLoans: number;
  /** Net charge-offs of the quarter alone. */
  netChargeOffs: number;
  /** Non-interest expense as a percent of net interest income plus non-interest income. */
  efficiency: number;
  /** Tier 1 capital as a percent of average assets; NaN when the bank reports no capital. */
  tier1Leverage: number;
}

/** One row being generated. */
export interface PlanRow {
  /** Per catalogue field: a balance, or a flow's amount for the quarter alone; NaN = not reported. */
  readonly values: Float64Array;
  /** The bank's weight in `slot`'s range, moved a little this quarter. */
  weight(slot: number): number;
  readonly base: BaseQuarter;
  readonly hasForeignOffices: boolean;
}

export interface Step {
  /** Catalogue field indexes the step writes. */
  readonly targets: readonly number[];
  /** Catalogue field indexes it reads. */
  readonly deps: readonly number[];
  run(row: PlanRow): void;
}

/**
 * Parts of `total` in proportion to their weights, in whole thousands, the rounding remainder on
 * the largest part, so that they sum to the total exactly.
 */
export function splitInParts(total: number, parts: readonly number[], slots: readonly number[]): Step {
  const weights = new Float64Array(parts.length);
  return {
    targets: parts,
    deps: [total],
    run(row) {
      const amount = row.values[total]!;
      let sum = 0;
      for (let k = 0; k < parts.length; k++) {
        weights[k] = row.weight(slots[k]!);
        sum += weights[k]!;
      }
      if (sum <= 0) {
        weights[0] = 1;
        sum = 1;
      }
      let assigned = 0;
      let largest = 0;
      for (let k = 0; k < parts.length; k++) {
        const value = Math.round((amount * weights[k]!) / sum);
        row.values[parts[k]!] = value;
        assigned += value;
        if (Math.abs(value) > Math.abs(row.values[parts[largest]!]!)) largest = k;
      }
      const biggest = parts[largest]!;
      row.values[biggest] = row.values[biggest]! + amount - assigned;
    },
  };
}

/**
 * `target` = Σ plus − Σ minus. With `missingAsZero`, an unreported `minus` counts as zero (domestic
 * deposits are all deposits when there are no foreign offices).
 */
export function sumOf(
  index: (name: string) => number,
  target: string,
  plus: readonly string[],
  minus: readonly string[] = [],
  missingAsZero = false,
): Step {
  const t = index(target);
  const add = plus.map(index);
  const subtract = minus.map(index);
  return {
    targets: [t],
    deps: [...add, ...subtract],
    run(row) {
      let value = 0;
      for (const i of add) value += row.values[i]!;
      for (const i of subtract) {
        const part = row.values[i]!;
        value -= missingAsZero && Number.isNaN(part) ? 0 : part;
      }
      row.values[t] = value;
    },
  };
}

/** Tier 1 capital from the base model's leverage ratio and the average assets it is measured on. */
export function deriveTier1(tier1: number, averageAssets: number): Step {
  return {
    targets: [tier1],
    deps: [averageAssets],
    run(row) {
      row.values[tier1] = Math.round((row.base.tier1Leverage / 100) * row.values[averageAssets]!);
    },
  };
}
