/**
 * The demo's plan for every amount and count of the call-report catalogue, built once from the
 * catalogue's demo rules (DemoRule in src/banking/fields/types.ts) plus the accounting identities
 * below, in dependency order. A step reads and writes one `Float64Array` per row (NaN = not
 * reported), so generating a row allocates nothing but the row object itself.
 *
 * Flows are generated for the quarter alone; financials-catalogue.ts accumulates year-to-date
 * fields and gives each `*_quarter` field its year-to-date twin's quarter amount. The catalogue's
 * ranges for year-to-date flows are full-year sizes (define.ts), so a year-to-date flow drawn as a
 * share of a balance takes a quarter of it per quarter.
 */
import { FINANCIAL_FIELDS } from '../../banking/fields/catalogue.js';
import type { FinancialField } from '../../banking/fields/types.js';
import { deriveTier1, type PlanRow, type Range, type Step, splitInParts, sumOf } from './financials-steps.js';

export type { BaseQuarter, PlanRow } from './financials-steps.js';

const INDEX = new Map(FINANCIAL_FIELDS.map((field, i) => [field.name, i]));

export function fieldIndex(name: string): number {
  const i = INDEX.get(name);
  if (i === undefined) throw new Error(`demo financials: no catalogue field ${name}`);
  return i;
}

/** The `*_quarter` fields whose year-to-date twin the demo generates (they share its quarter amount). */
export function ytdTwinOf(field: FinancialField): number | undefined {
  if (field.kind !== 'flow_quarter' || !field.name.endsWith('_quarter')) return undefined;
  const twin = INDEX.get(field.name.slice(0, -'_quarter'.length));
  return twin !== undefined && FINANCIAL_FIELDS[twin]!.kind === 'flow_ytd' ? twin : undefined;
}

/** Set by the base model (financials.ts) before the plan runs. */
export const BASE_FIELDS = ['total_assets', 'total_deposits', 'total_loans', 'total_equity'].map(fieldIndex);

/** Random weight ranges, one slot per draw; a bank draws each once (stable across its quarters). */
export const SLOT_RANGES: Range[] = [];
function slot(range: Range): number {
  SLOT_RANGES.push(range);
  return SLOT_RANGES.length - 1;
}

const ruleOf = (name: string) => FINANCIAL_FIELDS[fieldIndex(name)]!.demo;
function rangeOf(name: string): Range {
  const rule = ruleOf(name);
  if (!rule || 'perBillion' in rule) throw new Error(`demo financials: ${name} has no share or part rule`);
  return 'partOf' in rule ? rule.weight : rule.range;
}

/** A flow drawn as a share of a balance: the range is a full year's, a quarter takes a quarter of it. */
function perQuarter(target: FinancialField, of: FinancialField): number {
  return target.kind === 'flow_ytd' && of.kind === 'stock' ? 0.25 : 1;
}

function shareStep(
  name: string,
  of: string,
  range: Range,
  post?: (value: number, row: PlanRow) => number,
): Step {
  const target = fieldIndex(name);
  const source = fieldIndex(of);
  const factor = perQuarter(FINANCIAL_FIELDS[target]!, FINANCIAL_FIELDS[source]!);
  const s = slot(range);
  return {
    targets: [target],
    deps: [source],
    run(row) {
      const value = Math.round(row.weight(s) * row.values[source]! * factor);
      row.values[target] = post ? post(value, row) : value;
    },
  };
}

/**
 * Identities the demo keeps instead of a rule's independent share (each within the rule's range):
 * the base model's draws drive net income, noncurrent loans, net charge-offs, non-interest expense
 * (from the efficiency ratio) and tier 1 capital (from the leverage ratio); sums and differences
 * the call report defines hold exactly.
 */
function identitySteps(): Step[] {
  const netIncome = fieldIndex('net_income');
  const noncurrent = fieldIndex('noncurrent_loans');
  const net = fieldIndex('net_charge_offs');
  const gross = fieldIndex('gross_charge_offs');
  const recovered = fieldIndex('recoveries');
  const recoveries = slot(rangeOf('recoveries'));
  const netShare = slot(rangeOf('net_charge_offs'));
  const ii = fieldIndex('net_interest_income');
  const nonii = fieldIndex('noninterest_income');
  const nonie = fieldIndex('noninterest_expense');
  return [
    {
      targets: [netIncome],
      deps: [],
      run(row) {
        row.values[netIncome] = row.base.netIncome;
      },
    },
    {
      targets: [noncurrent],
      deps: [],
      run(row) {
        row.values[noncurrent] = row.base.noncurrentLoans;
      },
    },
    {
      // Net charge-offs from the base model; recoveries on top make the gross (parts sum exactly).
      targets: [net, gross, recovered],
      deps: [],
      run(row) {
        const nco = row.base.netChargeOffs;
        const r = row.weight(recoveries);
        const total = nco > 0 ? Math.round(nco / (1 - r / (r + row.weight(netShare)))) : 0;
        row.values[net] = nco;
        row.values[gross] = total;
        row.values[recovered] = total - nco;
      },
    },
    {
      targets: [nonie],
      deps: [ii, nonii],
      run(row) {
        const income = row.values[ii]! + row.values[nonii]!;
        row.values[nonie] = Math.round((row.base.efficiency / 100) * income);
      },
    },
    deriveTier1(fieldIndex('tier1_capital'), fieldIndex('average_assets_for_leverage')),
    sumOf(fieldIndex, 'total_equity_capital', ['total_equity', 'noncontrolling_interests']),
    sumOf(fieldIndex, 'total_liabilities', ['total_assets'], ['total_equity_capital']),
    sumOf(fieldIndex, 'net_loans', ['total_loans'], ['allowance_for_loan_losses']),
    sumOf(fieldIndex, 'real_estate_loans', [
      'construction_loans',
      'farmland_loans',
      'multifamily_loans',
      'nonfarm_nonres_loans',
      'residential_loans',
    ]),
    sumOf(fieldIndex, 'commercial_real_estate_loans', [
      'construction_loans',
      'multifamily_loans',
      'nonfarm_nonres_loans',
    ]),
    sumOf(fieldIndex, 'consumer_loans', ['credit_card_loans', 'auto_loans', 'other_consumer_loans']),
    sumOf(fieldIndex, 'income_taxes', ['pretax_income'], ['net_income']),
    sumOf(fieldIndex, 'uninsured_deposits', ['deposits_before_exclusions'], ['insured_deposits']),
    sumOf(fieldIndex, 'deposits_domestic', ['total_deposits'], ['deposits_foreign'], true),
    sumOf(fieldIndex, 'offices_total', ['offices_domestic', 'offices_foreign']),
    // Foreign offices only at banks that have them (the others file without foreign-office items).
    shareStep('deposits_foreign', 'total_deposits', rangeOf('deposits_foreign'), (value, row) =>
      row.hasForeignOffices ? value : Number.NaN,
    ),
    shareStep('offices_foreign', 'offices_domestic', rangeOf('offices_foreign'), (value, row) =>
      row.hasForeignOffices ? Math.max(1, value) : 0,
    ),
    shareStep('cash_dividends', 'net_income', rangeOf('cash_dividends'), (value) => Math.max(0, value)),
  ];
}

/** The steps the catalogue's own rules give, for every field no identity covers. */
function ruleSteps(covered: Set<number>): Step[] {
  const steps: Step[] = [];
  const parts = new Map<string, { names: string[]; ranges: Range[] }>();
  for (const field of FINANCIAL_FIELDS) {
    const i = fieldIndex(field.name);
    const rule = field.demo;
    if (!rule || covered.has(i) || ytdTwinOf(field) !== undefined) continue;
    if ('partOf' in rule) {
      const group = parts.get(rule.partOf) ?? { names: [], ranges: [] };
      group.names.push(field.name);
      group.ranges.push(rule.weight);
      parts.set(rule.partOf, group);
    } else if ('shareOf' in rule) {
      steps.push(shareStep(field.name, rule.shareOf, rule.range));
    } else {
      const s = slot(rule.perBillion);
      const source = fieldIndex(rule.of);
      steps.push({
        targets: [i],
        deps: [source],
        run(row) {
          row.values[i] = Math.max(1, Math.round((row.weight(s) * row.values[source]!) / 1e6));
        },
      });
    }
  }
  for (const [total, group] of parts) {
    const slots = group.ranges.map(slot);
    steps.push(splitInParts(fieldIndex(total), group.names.map(fieldIndex), slots));
  }
  return steps;
}

/** Steps in an order where every step's inputs are computed before it runs. */
function ordered(steps: Step[]): Step[] {
  const known = new Set(BASE_FIELDS);
  const result: Step[] = [];
  let pending = steps;
  while (pending.length > 0) {
    const ready = pending.filter((step) => step.deps.every((dep) => known.has(dep)));
    if (ready.length === 0) {
      const names = pending.flatMap((step) => step.targets.map((t) => FINANCIAL_FIELDS[t]!.name));
      throw new Error(`demo financials: cannot order the steps for ${names.join(', ')}`);
    }
    for (const step of ready) for (const target of step.targets) known.add(target);
    result.push(...ready);
    pending = pending.filter((step) => !ready.includes(step));
  }
  return result;
}

function buildPlan(): Step[] {
  const identities = identitySteps();
  const covered = new Set(identities.flatMap((step) => step.targets));
  return ordered([...identities, ...ruleSteps(covered)]);
}

export const PLAN: readonly Step[] = buildPlan();

/**
 * Subsets a rule draws independently of each other, scaled down (never up) so that they never add
 * up to more than the amount they are part of. Outer ones first.
 */
export const CAPS: readonly { total: number; parts: number[] }[] = [
  ['securities', 'us_treasury_securities', 'municipal_securities', 'mortgage_backed_securities'],
  ['intangible_assets', 'goodwill', 'mortgage_servicing_assets'],
  [
    'noncurrent_loans',
    ...['construction', 'multifamily', 'nonfarm_nonres', 'residential', 'ci', 'consumer'].map(
      (kind) => `noncurrent_${kind}_loans`,
    ),
  ],
  ['noncurrent_consumer_loans', 'noncurrent_credit_card_loans'],
  [
    'net_charge_offs',
    ...['construction', 'multifamily', 'nonfarm_nonres', 'residential', 'ci', 'consumer'].map(
      (kind) => `net_charge_offs_${kind}`,
    ),
  ],
  ['net_charge_offs_consumer', 'net_charge_offs_credit_card', 'net_charge_offs_auto'],
].map(([total, ...parts]) => ({ total: fieldIndex(total!), parts: parts.map(fieldIndex) }));
