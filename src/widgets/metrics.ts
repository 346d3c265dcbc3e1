/** The eight widget metrics (SPEC §2): financials column, label, and which direction is good news. */

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
