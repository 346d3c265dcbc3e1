/** The 13 fields served since the first release (SPEC §2); their names never change. */
import type { FinancialField } from '../types.js';
import { per } from './define.js';

export const CORE_FIELDS: readonly FinancialField[] = [
  {
    name: 'total_assets',
    fdic_field: 'ASSET',
    unit: 'thousands_usd',
    kind: 'stock',
    family: 'assets',
    title: 'Total assets',
    description:
      'The sum of all assets owned by the institution including cash, loans, securities, bank premises and other assets. This total does not include off-balance-sheet accounts.',
    ffiec: 'RCFD2170|RCON2170',
  },
  {
    name: 'total_deposits',
    fdic_field: 'DEP',
    unit: 'thousands_usd',
    kind: 'stock',
    family: 'deposits',
    title: 'Total deposits',
    description:
      'The sum of all deposits including demand deposits, money market deposits, other savings deposits, time deposits and deposits in foreign offices.',
    ffiec: 'RCON2200 + RCFN2200',
  },
  // definition: from FDIC title (FDIC's field file gives none)
  {
    name: 'total_loans',
    fdic_field: 'LNLSGR',
    unit: 'thousands_usd',
    kind: 'stock',
    family: 'loans',
    title: 'Total loans and leases, gross',
    description: 'Loans and leases - total (gross, before the allowance for loan and lease losses).',
    ffiec: 'RCFD2122|RCON2122',
  },
  {
    name: 'total_equity',
    fdic_field: 'EQ',
    fdic_alternates: ['EQTOT'],
    unit: 'thousands_usd',
    kind: 'stock',
    family: 'liabilities_equity',
    title: 'Equity capital',
    description: 'Total equity capital (includes preferred and common stock, surplus and undivided profits).',
    ffiec: 'RCFD3210|RCON3210',
  },
  {
    name: 'net_income',
    fdic_field: 'NETINC',
    unit: 'thousands_usd',
    kind: 'flow_ytd',
    family: 'income',
    title: 'Net income',
    description:
      'Net interest income plus total noninterest income plus realized gains (losses) on securities and extraordinary items, less total noninterest expense, loan loss provisions and income taxes.',
    ffiec: 'RIAD4340',
  },
  {
    name: 'roa',
    fdic_field: 'ROA',
    unit: 'percent',
    kind: 'ratio',
    family: 'performance',
    title: 'Return on assets',
    description:
      'Net income after taxes and extraordinary items (annualized) as a percent of average total assets.',
    ratio: { numerator: 'net_income', denominator: 'total_assets', annualised: true },
  },
  {
    name: 'roe',
    fdic_field: 'ROE',
    unit: 'percent',
    kind: 'ratio',
    family: 'performance',
    title: 'Return on equity',
    description:
      'Annualized net income as a percent of average equity on a consolidated basis. Note: If retained earnings are negative, the ratio is shown as NA.',
    ratio: { numerator: 'net_income', denominator: 'total_equity', annualised: true },
  },
  // definition: from FDIC title (FDIC's field file gives none)
  {
    name: 'efficiency_ratio',
    fdic_field: 'EEFFR',
    unit: 'percent',
    kind: 'ratio',
    family: 'performance',
    title: 'Efficiency ratio',
    description:
      'Noninterest expense, less the amortization expense of intangible assets, as a percent of the sum of net interest income and noninterest income.',
    ratio: per('noninterest_expense', ['net_interest_income', 'noninterest_income']),
  },
  // definition: from FDIC title (FDIC's field file gives none)
  {
    name: 'npl_ratio',
    fdic_field: 'NCLNLSR',
    unit: 'percent',
    kind: 'ratio',
    family: 'asset_quality',
    title: 'Noncurrent loans to loans',
    description:
      'Noncurrent loans and leases (90 days or more past due plus nonaccrual) as a percent of gross loans and leases.',
    ratio: per('noncurrent_loans', 'total_loans'),
  },
  // definition: from FDIC title (FDIC's field file gives none)
  {
    name: 'tier1_leverage',
    fdic_field: 'RBC1AAJ',
    unit: 'percent',
    kind: 'ratio',
    family: 'capital',
    title: 'Tier 1 leverage ratio',
    description: 'Leverage ratio (PCA): tier 1 capital as a percent of average total assets.',
    ffiec: 'RCFA7204|RCOA7204|RCFD7204|RCON7204',
  },
  // definition: from FDIC title (FDIC's field file gives none)
  {
    name: 'equity_ratio',
    fdic_field: 'EQV',
    unit: 'percent',
    kind: 'ratio',
    family: 'capital',
    title: 'Equity capital to assets',
    description: 'Bank equity capital as a percent of total assets.',
    ratio: { numerator: 'total_equity', denominator: 'total_assets' },
  },
  // definition: from FDIC title (FDIC's field file gives none)
  {
    name: 'loan_to_deposit',
    fdic_field: 'LNLSDEPR',
    unit: 'percent',
    kind: 'ratio',
    family: 'performance',
    title: 'Net loans and leases to deposits',
    description: 'Net loans and leases as a percent of total deposits.',
    ratio: per('net_loans', 'total_deposits'),
  },
  // definition: from FDIC title (FDIC's field file gives none)
  {
    name: 'charge_off_rate',
    fdic_field: 'NTLNLSR',
    unit: 'percent',
    kind: 'ratio',
    family: 'asset_quality',
    title: 'Net charge-offs to loans',
    description: 'Net charge-offs (annualized) as a percent of gross loans and leases.',
    ratio: per('net_charge_offs', 'total_loans', true),
  },
];
