/**
 * The widget metrics: the eight of SPEC §2 (financials column, label, which direction is good
 * news), shown in the gallery, and every other `percent` field of the call-report catalogue, which
 * a widget URL may name too (labelled with the catalogue title; direction neutral).
 */
import { FINANCIAL_FIELDS } from '../banking/fields/catalogue.js';

export const METRIC_KEYS = [
  'roa',
  'roe',
  'efficiency_ratio',
  'equity_ratio',
  'npl_ratio',
  'tier1_leverage',
  'loan_to_deposit',
  'charge_off_rate',
] as const;

export type MetricKey = (typeof METRIC_KEYS)[number];

/** `higher`/`lower`: a rise is coloured good/bad; `neutral`: direction alone says nothing. */
export type Better = 'higher' | 'lower' | 'neutral';

export interface MetricDefinition {
  readonly key: MetricKey;
  readonly label: string;
  /** FDIC BankFind field the value comes from. */
  readonly source: string;
  readonly better: Better;
}

export const METRICS: Readonly<Record<MetricKey, MetricDefinition>> = {
  roa: { key: 'roa', label: 'Return on assets', source: 'ROA', better: 'higher' },
  roe: { key: 'roe', label: 'Return on equity', source: 'ROE', better: 'higher' },
  efficiency_ratio: { key: 'efficiency_ratio', label: 'Efficiency ratio', source: 'EEFFR', better: 'lower' },
  equity_ratio: { key: 'equity_ratio', label: 'Equity to assets', source: 'EQV', better: 'higher' },
  npl_ratio: { key: 'npl_ratio', label: 'Noncurrent loans', source: 'NCLNLSR', better: 'lower' },
  tier1_leverage: { key: 'tier1_leverage', label: 'Tier 1 leverage', source: 'RBC1AAJ', better: 'higher' },
  loan_to_deposit: {
    key: 'loan_to_deposit',
    label: 'Loans to deposits',
    source: 'LNLSDEPR',
    better: 'neutral',
  },
  charge_off_rate: {
    key: 'charge_off_rate',
    label: 'Net charge-off rate',
    source: 'NTLNLSR',
    better: 'lower',
  },
};

export function isMetricKey(value: string): value is MetricKey {
  return (METRIC_KEYS as readonly string[]).includes(value);
}

/** A metric a widget URL may name: one of the eight, or any percent catalogue field. */
export type WidgetMetric = string;

export const WIDGET_METRIC_KEYS: readonly WidgetMetric[] = [
  ...METRIC_KEYS,
  ...FINANCIAL_FIELDS.filter((f) => f.unit === 'percent' && !isMetricKey(f.name)).map((f) => f.name),
];

const CATALOGUE_METRICS = new Map<string, MetricDefinition>(
  FINANCIAL_FIELDS.filter((f) => f.unit === 'percent').map((f) => [
    f.name,
    { key: f.name as MetricKey, label: f.title, source: f.fdic_field, better: 'neutral' },
  ]),
);

export function widgetMetric(key: WidgetMetric): MetricDefinition {
  return isMetricKey(key) ? METRICS[key] : CATALOGUE_METRICS.get(key)!;
}
