/** Performance ratios: earnings, margins, funding mix, concentrations (SPEC §5). */

import type { FinancialField } from '../types.js';
import { fieldsOf, per } from './define.js';

const f = fieldsOf('performance');

export const PERFORMANCE_FIELDS: readonly FinancialField[] = [
  f.ratio(
    'pretax_roa',
    'ROAPTX',
    'Pretax return on assets',
    'Annualized pre-tax net income as a percent of average assets. Note: Includes extraordinary items and other adjustments, net of taxes.',
    { ratio: per('pretax_income', 'total_assets', true) },
  ),
  f.ratio(
    'roa_quarter',
    'ROAQ',
    'Return on assets, quarter',
    'Quarterly net income after taxes and extraordinary items as a percent of average total assets.',
  ),
  f.ratio(
    'roe_quarter',
    'ROEQ',
    'Return on equity, quarter',
    'Quarterly net income (including gains or losses on securities and extraordinary items) as a percentage of average total equity capital.',
  ),
  // definition: from FDIC title
  f.ratio(
    'real_estate_loans_to_assets',
    'LNRER',
    'Real estate loans to assets',
    'Loans secured by real estate as a percent of total assets.',
    { ratio: per('real_estate_loans', 'total_assets') },
  ),
  // definition: from FDIC title
  f.ratio(
    'net_interest_margin',
    'NIMY',
    'Net interest margin',
    'Net interest income (annualized) as a percent of average earning assets.',
    { ratio: per('net_interest_income', 'earning_assets', true) },
  ),
  // definition: from FDIC title
  f.ratio(
    'yield_on_earning_assets',
    'INTINCY',
    'Yield on earning assets',
    'Total interest income (annualized) as a percent of average earning assets.',
    { ratio: per('interest_income', 'earning_assets', true) },
  ),
  // definition: from FDIC title
  f.ratio(
    'cost_of_funding_earning_assets',
    'INTEXPY',
    'Cost of funding earning assets',
    'Total interest expense (annualized) as a percent of average earning assets.',
    { ratio: per('interest_expense', 'earning_assets', true) },
  ),
  // definition: from FDIC title
  f.ratio(
    'efficiency_ratio_quarter',
    'EEFFQR',
    'Efficiency ratio, quarter',
    'Noninterest expense for the quarter as a percent of the sum of net interest income and noninterest income for the quarter.',
    {
      ratio: per('noninterest_expense_quarter', [
        'net_interest_income_quarter',
        'noninterest_income_quarter',
      ]),
    },
  ),
  // definition: from FDIC title
  f.ratio(
    'noninterest_income_to_assets',
    'NONIIAY',
    'Noninterest income to average assets',
    'Noninterest income as a percent of average assets.',
    { ratio: per('noninterest_income', 'total_assets', true) },
  ),
  // definition: from FDIC title
  f.ratio(
    'noninterest_expense_to_assets',
    'NONIXAY',
    'Noninterest expense to average assets',
    'Noninterest expense (annualized) as a percent of average assets.',
    { ratio: per('noninterest_expense', 'total_assets', true) },
  ),
  // definition: from FDIC title
  f.ratio(
    'provision_to_assets',
    'ELNATRY',
    'Provision for credit losses to average assets',
    'Provisions for credit losses as a percent of average assets.',
    { ratio: per('provision_for_credit_losses', 'total_assets', true) },
  ),
  // definition: from FDIC title
  f.ratio(
    'net_loans_to_assets',
    'LNLSNTV',
    'Net loans and leases to assets',
    'Net loans and leases as a percent of total assets.',
    { ratio: per('net_loans', 'total_assets') },
  ),
  // definition: from FDIC title
  f.ratio(
    'dividends_to_net_income',
    'EQCDIVNTINC',
    'Cash dividends to net income',
    'Cash dividends on common and preferred stock as a percent of net income (year to date only).',
    { ratio: per('cash_dividends', 'net_income') },
  ),
  // definition: from FDIC title
  f.ratio(
    'uninsured_deposits_to_assets',
    'DEPUNAR',
    'Estimated uninsured deposits to assets',
    'Estimated uninsured deposits in domestic offices and in insured branches in U.S. territories and possessions, as a percent of total assets.',
    { ratio: per('uninsured_deposits', 'total_assets') },
  ),
  // definition: SDI
  f.ratio(
    'insured_deposit_share',
    'IDDEPINR',
    'Estimated insured deposits to deposits',
    'Estimated amount of insured deposits as a percent of total deposit liabilities before exclusions (gross) as defined in section 3(l) of the Federal Deposit Insurance Act and FDIC regulations. Available in the FDIC Institution Directory beginning in March 2009. NOTE: Although standard FDIC insurance coverage was temporarily raised from $100,000 to $250,000 in October 2008, institutions are required to report the source elements for this estimate based on the $100,000 coverage limit through June 2009. Beginning with the September 30, 2009 reporting period, institutions are required to report based on the $250,000 coverage limit. RIS definition: IDDEPINR = (DEPINS / DEPBEFEX) *100',
    { ratio: per('insured_deposits', 'deposits_before_exclusions') },
  ),
  // definition: from FDIC title
  f.ratio(
    'core_deposits_to_assets',
    'COREDEPR',
    'Core deposits to assets',
    'Core deposits as a percent of total assets.',
    { ratio: per('core_deposits', 'total_assets') },
  ),
  // definition: from FDIC title
  f.ratio(
    'brokered_deposits_to_assets',
    'BROR',
    'Brokered deposits to assets',
    'Brokered deposits as a percent of total assets.',
    { ratio: per('brokered_deposits', 'total_assets') },
  ),
  // definition: from FDIC title
  f.ratio(
    'cre_loans_to_assets',
    'LNCOMRER',
    'Commercial real estate loans to assets',
    'Commercial real estate loans as a percent of total assets.',
    { ratio: per('commercial_real_estate_loans', 'total_assets') },
  ),
  // definition: from FDIC title
  f.ratio(
    'construction_loans_to_tier1',
    'LNCDT1R',
    'Construction and land development loans to tier 1 capital',
    'Construction and land development loans as a percent of tier 1 capital.',
    { ratio: per('construction_loans', 'tier1_capital') },
  ),
];
