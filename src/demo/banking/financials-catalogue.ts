/**
 * Every field of the call-report catalogue for one demo institution, quarter by quarter, from the
 * base model's draws (financials.ts) and the plan (financials-plan.ts):
 * - amounts and counts from the plan; parts of a total sum to it exactly; a bank's weights are
 *   drawn once and move a little from quarter to quarter;
 * - year-to-date flows (`flow_ytd`) accumulate the quarter amounts within the calendar year and the
 *   `*_quarter` fields carry the quarter alone, so Q4 year to date = the sum of the year's quarters
 *   (a bank whose first report falls mid-year counts its first quarter for each quarter elapsed);
 * - ratios with a catalogue rule follow from the amounts (ratioOf's rules, on the column values), the
 *   others from DEMO_RATIOS.
 *
 * Missing on purpose: ~2 % of banks never report brokered deposits; banks without foreign offices
 * (most of them) report no foreign-office deposits and 0 foreign offices; banks that report no
 * leverage ratio (foreign-bank branches, ~1 % of the rest) report no regulatory capital (risk-weighted
 * assets, tier 1/CET1/tier 2/total capital, average assets and their ratios); a bank with no loans
 * has no loan ratios.
 */
import { FINANCIAL_FIELDS } from '../../banking/fields/catalogue.js';
import type { FinancialRow } from '../../banking/fields/row.js';
import {
  BASE_FIELDS,
  type BaseQuarter,
  CAPS,
  fieldIndex,
  PLAN,
  type PlanRow,
  SLOT_RANGES,
  ytdTwinOf,
} from './financials-plan.js';
import type { Random } from './random.js';

/**
 * Ratios the catalogue gives no rule for, as the demo computes them: 100 × scale × Σ numerator /
 * denominator (`scale` 4 annualises a quarter). FDIC averages the denominator; the demo does not.
 */
export const DEMO_RATIOS: Readonly<
  Record<string, { numerator: readonly string[]; denominator: string; scale: number }>
> = {
  tier1_leverage: { numerator: ['tier1_capital'], denominator: 'average_assets_for_leverage', scale: 1 },
  roa_quarter: { numerator: ['net_income_quarter'], denominator: 'total_assets', scale: 4 },
  roe_quarter: { numerator: ['net_income_quarter'], denominator: 'total_equity', scale: 4 },
  charge_off_rate_quarter: { numerator: ['net_charge_offs_quarter'], denominator: 'total_loans', scale: 4 },
  nonperforming_assets_to_assets: {
    numerator: ['noncurrent_loans', 'other_real_estate_owned'],
    denominator: 'total_assets',
    scale: 1,
  },
};

/** Share of banks that never report brokered deposits. */
const NO_BROKERED_SHARE = 0.02;
/** Banks with foreign offices: half of those of $10 billion or more, 1 % of the smaller ones. */
const FOREIGN_OFFICES = { largeAssets: 10_000_000, large: 0.5, small: 0.01 };
/** A bank's weight moves by up to ± half this fraction from one quarter to the next. */
const QUARTER_NOISE = 0.06;

const FIELD_COUNT = FINANCIAL_FIELDS.length;
const NAMES = FINANCIAL_FIELDS.map((field) => field.name);
const LOW = Float64Array.from(SLOT_RANGES, (range) => range[0]);
const HIGH = Float64Array.from(SLOT_RANGES, (range) => range[1]);

const FROM_VALUES = 0;
const FROM_YTD = 1;
const RATIO = 2;
/** Where each column's value comes from, and at which index. */
const SOURCE_KIND = new Uint8Array(FIELD_COUNT);
const SOURCE_INDEX = new Int32Array(FIELD_COUNT);
FINANCIAL_FIELDS.forEach((field, i) => {
  const twin = ytdTwinOf(field);
  SOURCE_KIND[i] = field.kind === 'ratio' ? RATIO : field.kind === 'flow_ytd' ? FROM_YTD : FROM_VALUES;
  SOURCE_INDEX[i] = twin ?? i;
});
/** One row's column values before they become an object (NaN = null); rows are built one at a time. */
const COLUMN_VALUES = new Float64Array(FIELD_COUNT);

/**
 * A row as one object literal over every column the demo writes, generated once from the catalogue.
 * A row of ~175 properties assigned one by one turns into a dictionary-mode object: measured 5× the
 * time of the literal, most of it garbage collection. The holding-company columns are in the literal
 * too (financials.ts sets them later): adding them to rows of this size also turned every row into
 * a dictionary, and every named read of the insert into a hash lookup.
 */
const makeRow = new Function(
  'cert',
  'date',
  'v',
  `return { cert, report_date: date, source: 'demo', ${NAMES.map(
    (name, i) => `${JSON.stringify(name)}: v[${i}] === v[${i}] ? v[${i}] : null`,
  ).join(', ')}, holding_company: null, holding_company_rssd: null };`,
) as (cert: number, date: string, values: Float64Array) => FinancialRow;

const YTD_FIELDS = FINANCIAL_FIELDS.flatMap((field, i) => (field.kind === 'flow_ytd' ? [i] : []));
const [TOTAL_ASSETS, TOTAL_DEPOSITS, TOTAL_LOANS, TOTAL_EQUITY] = BASE_FIELDS as [
  number,
  number,
  number,
  number,
];
const NO_BROKERED = [fieldIndex('brokered_deposits')];
/** Tier 1 capital and everything built on it follow from these being unreported. */
const NO_CAPITAL = ['risk_weighted_assets', 'average_assets_for_leverage'].map(fieldIndex);
/**
 * The ratios, by column: first every catalogue rule, for a column with no value (as fillRatios does
 * on a row), then the demo's own (DEMO_RATIOS), in that order, so a ratio can read one before it.
 * Computed on the row's column values, where the same rules on the row object cost ~2.5 s of the
 * full-scale build in keyed property reads and writes.
 */
const columnsOf = (names: string | readonly string[]) =>
  Int32Array.from(typeof names === 'string' ? [names] : names, fieldIndex);
const CATALOGUE_RATIOS = FINANCIAL_FIELDS.flatMap((field, column) =>
  field.ratio
    ? [
        {
          column,
          numerator: columnsOf(field.ratio.numerator),
          denominator: columnsOf(field.ratio.denominator),
          annualised: field.ratio.annualised === true,
        },
      ]
    : [],
);
const OWN_RATIOS = Object.entries(DEMO_RATIOS).map(([name, rule]) => ({
  column: fieldIndex(name),
  numerator: columnsOf(rule.numerator),
  denominator: fieldIndex(rule.denominator),
  scale: rule.scale,
}));

/** The base model's totals for one quarter. */
export interface BaseTotals {
  assets: number;
  deposits: number;
  loans: number;
  equity: number;
}

/** One institution's catalogue generator; call `row` for its report dates in order. */
export class CatalogueBank implements PlanRow {
  readonly values = new Float64Array(FIELD_COUNT).fill(Number.NaN);
  readonly base: BaseQuarter = {
    netIncome: 0,
    noncurrentLoans: 0,
    netChargeOffs: 0,
    efficiency: 0,
    tier1Leverage: 0,
  };
  readonly hasForeignOffices: boolean;
  private readonly weights = new Float64Array(SLOT_RANGES.length);
  private readonly ytd = new Float64Array(FIELD_COUNT);
  private readonly missing: readonly number[];
  private year = '';

  constructor(
    private readonly random: Random,
    assetSize: number,
    reportsCapital: boolean,
  ) {
    for (let s = 0; s < this.weights.length; s++) this.weights[s] = random.uniform(LOW[s]!, HIGH[s]!);
    const { largeAssets, large, small } = FOREIGN_OFFICES;
    this.hasForeignOffices = random.chance(assetSize >= largeAssets ? large : small);
    this.missing = [
      ...(random.chance(NO_BROKERED_SHARE) ? NO_BROKERED : []),
      ...(reportsCapital ? [] : NO_CAPITAL),
    ];
  }

  weight(slot: number): number {
    const value = this.weights[slot]! * (1 + QUARTER_NOISE * (this.random.next() - 0.5));
    return Math.min(HIGH[slot]!, Math.max(LOW[slot]!, value));
  }

  /** The row for `date`, after `base` has been set to the quarter's draws. */
  row(cert: number, date: string, totals: BaseTotals): FinancialRow {
    const values = this.values;
    values[TOTAL_ASSETS] = totals.assets;
    values[TOTAL_DEPOSITS] = totals.deposits;
    values[TOTAL_LOANS] = totals.loans;
    values[TOTAL_EQUITY] = totals.equity;
    for (const step of PLAN) {
      step.run(this);
      if (this.missing.length > 0)
        for (const target of step.targets) if (this.missing.includes(target)) values[target] = Number.NaN;
    }
    capSubsets(values);
    this.accumulate(date);
    const out = COLUMN_VALUES;
    for (let i = 0; i < FIELD_COUNT; i++) {
      const kind = SOURCE_KIND[i];
      out[i] = kind === RATIO ? Number.NaN : (kind === FROM_YTD ? this.ytd : values)[SOURCE_INDEX[i]!]!;
    }
    fillRatioColumns(out, Number(date.slice(5, 7)));
    return makeRow(cert, date, out);
  }

  /** Year to date: the quarter amounts since the year began (reset on a new calendar year). */
  private accumulate(date: string): void {
    const year = date.slice(0, 4);
    const restart = year !== this.year;
    const elapsed = this.year === '' ? Number(date.slice(5, 7)) / 3 : 1;
    this.year = year;
    for (const i of YTD_FIELDS) {
      this.ytd[i] = restart ? this.values[i]! * elapsed : this.ytd[i]! + this.values[i]!;
    }
  }
}

/** Independently drawn subsets scaled down to fit within their amount (CAPS). */
function capSubsets(values: Float64Array): void {
  for (const { total, parts } of CAPS) {
    const amount = values[total]!;
    let sum = 0;
    for (const part of parts) sum += values[part]!;
    if (!(sum > amount)) continue;
    const factor = amount > 0 ? amount / sum : 0;
    for (const part of parts) values[part] = Math.floor(values[part]! * factor);
  }
}

/** Σ of `columns`' values, NaN when none has one (ratioOf's `total` over a row). */
function totalOf(values: Float64Array, columns: Int32Array): number {
  let sum = Number.NaN;
  for (let k = 0; k < columns.length; k++) {
    const value = values[columns[k]!]!;
    if (!Number.isNaN(value)) sum = (Number.isNaN(sum) ? 0 : sum) + value;
  }
  return sum;
}

/** Every ratio of a row's column values (NaN = null), as ratioOf and the demo's own rule compute them. */
function fillRatioColumns(values: Float64Array, month: number): void {
  for (const { column, numerator, denominator, annualised } of CATALOGUE_RATIOS) {
    if (!Number.isNaN(values[column])) continue;
    const top = totalOf(values, numerator);
    const bottom = totalOf(values, denominator);
    if (Number.isNaN(top) || Number.isNaN(bottom) || bottom === 0) continue;
    values[column] = (100 * top * (annualised ? 12 / month : 1)) / bottom;
  }
  for (const { column, numerator, denominator, scale } of OWN_RATIOS) {
    const base = values[denominator]!;
    let sum = 0;
    for (let k = 0; k < numerator.length && !Number.isNaN(sum); k++) sum += values[numerator[k]!]!;
    values[column] = Number.isNaN(base) || base === 0 ? Number.NaN : (100 * scale * sum) / base;
  }
}
