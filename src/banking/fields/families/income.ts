/** The income statement, year to date (`flow_ytd`) and the quarter alone (`flow_quarter`) (SPEC §5). */

import type { FinancialField } from '../types.js';
import { fieldsOf, part, share } from './define.js';

const f = fieldsOf('income');

export const INCOME_FIELDS: readonly FinancialField[] = [
  // definition: from FDIC title
  f.ytd('interest_income', 'INTINC', 'Total interest income', 'Total interest income, year to date.', {
    ffiec: 'RIAD4107',
    demo: share('total_assets', 0.03, 0.06),
  }),
  // definition: from FDIC title
  f.quarter(
    'interest_income_quarter',
    'INTINQ',
    'Total interest income, quarter',
    'Total interest income for the quarter.',
    { demo: share('total_assets', 0.0075, 0.015) },
  ),
  // definition: from FDIC title
  f.ytd('interest_expense', 'EINTEXP', 'Total interest expense', 'Total interest expense, year to date.', {
    ffiec: 'RIAD4073',
    demo: part('interest_income', 0.1, 0.5),
  }),
  // definition: from FDIC title
  f.quarter(
    'interest_expense_quarter',
    'EINTXQ',
    'Total interest expense, quarter',
    'Total interest expense for the quarter.',
    { demo: part('interest_income_quarter', 0.1, 0.5) },
  ),
  // definition: from FDIC title
  f.ytd(
    'net_interest_income',
    'NIM',
    'Net interest income',
    'Net interest income (total interest income less total interest expense), year to date.',
    { ffiec: 'RIAD4107 - RIAD4073', demo: part('interest_income', 0.5, 0.9) },
  ),
  // definition: from FDIC title
  f.quarter(
    'net_interest_income_quarter',
    'NIMQ',
    'Net interest income, quarter',
    'Net interest income (total interest income less total interest expense) for the quarter.',
    { demo: part('interest_income_quarter', 0.5, 0.9) },
  ),
  // definition: from FDIC title
  f.ytd(
    'noninterest_income',
    'NONII',
    'Total noninterest income',
    'Total noninterest income, year to date.',
    { ffiec: 'RIAD4079', demo: share('total_assets', 0.003, 0.012) },
  ),
  // definition: from FDIC title
  f.quarter(
    'noninterest_income_quarter',
    'NONIIQ',
    'Total noninterest income, quarter',
    'Total noninterest income for the quarter.',
    { demo: share('total_assets', 0.00075, 0.003) },
  ),
  // definition: from FDIC title
  f.ytd(
    'noninterest_expense',
    'NONIX',
    'Total noninterest expense',
    'Total noninterest expense, year to date.',
    { ffiec: 'RIAD4093', demo: share('total_assets', 0.018, 0.035) },
  ),
  // definition: from FDIC title
  f.quarter(
    'noninterest_expense_quarter',
    'NONIXQ',
    'Total noninterest expense, quarter',
    'Total noninterest expense for the quarter.',
    { demo: share('total_assets', 0.0045, 0.00875) },
  ),
  // definition: from FDIC title
  f.ytd(
    'salaries_and_benefits',
    'ESAL',
    'Salaries and employee benefits',
    'Salaries and employee benefits, year to date.',
    { ffiec: 'RIAD4135', demo: part('noninterest_expense', 0.45, 0.6) },
  ),
  // definition: from FDIC title
  f.ytd(
    'premises_expense',
    'EPREMAGG',
    'Premises and fixed assets expense',
    'Expenses of premises and fixed assets, year to date.',
    { ffiec: 'RIAD4217', demo: part('noninterest_expense', 0.08, 0.15) },
  ),
  // definition: from FDIC title
  f.ytd(
    'intangible_amortization_and_impairment',
    'EAMINTAN',
    'Amortization and impairment losses on intangible assets',
    'Amortization expense and impairment losses on intangible assets (including goodwill impairment), year to date.',
    { ffiec: 'RIADC216 + RIADC232', demo: part('noninterest_expense', 0, 0.03) },
  ),
  // definition: from FDIC title
  f.ytd(
    'other_noninterest_expense',
    'EOTHNINT',
    'All other noninterest expense',
    'All other noninterest expense, year to date.',
    { ffiec: 'RIAD4092', demo: part('noninterest_expense', 0.25, 0.4) },
  ),
  // definition: from FDIC title
  f.ytd(
    'service_charges_on_deposits',
    'ISERCHG',
    'Service charges on deposit accounts',
    'Service charges on deposit accounts, year to date.',
    { ffiec: 'RIAD4080', demo: share('noninterest_income', 0.1, 0.35) },
  ),
  // definition: from FDIC title
  f.ytd(
    'provision_for_credit_losses',
    'ELNATR',
    'Provision for credit losses',
    'Provisions for credit losses, year to date.',
    { ffiec: 'RIADJJ33|RIAD4230', demo: share('total_loans', 0, 0.006) },
  ),
  // definition: from FDIC title
  f.quarter(
    'provision_for_credit_losses_quarter',
    'ELNATQ',
    'Provision for credit losses, quarter',
    'Provisions for credit losses for the quarter.',
    { demo: share('total_loans', 0, 0.0015) },
  ),
  // definition: from FDIC title
  f.ytd(
    'securities_gains',
    'IGLSEC',
    'Realized gains (losses) on securities',
    'Realized gains and losses on securities, year to date.',
    { ffiec: 'RIAD3521 + RIAD3196', demo: share('total_assets', -0.001, 0.0005) },
  ),
  // definition: from FDIC title
  f.ytd(
    'pretax_income',
    'IBEFTAX',
    'Income before income taxes',
    'Income before income taxes and discontinued operations, year to date.',
    { ffiec: 'RIAD4301', demo: share('net_income', 1.1, 1.35) },
  ),
  // definition: from FDIC title
  f.quarter(
    'pretax_income_quarter',
    'IBEFTXQ',
    'Income before income taxes, quarter',
    'Income before income taxes and discontinued operations for the quarter.',
    { demo: share('net_income_quarter', 1.1, 1.35) },
  ),
  // definition: from FDIC title
  f.ytd('income_taxes', 'ITAX', 'Applicable income taxes', 'Applicable income taxes, year to date.', {
    ffiec: 'RIAD4302',
    demo: share('net_income', 0.1, 0.35),
  }),
  // definition: from FDIC title
  f.quarter(
    'income_taxes_quarter',
    'ITAXQ',
    'Applicable income taxes, quarter',
    'Applicable income taxes for the quarter.',
    { demo: share('net_income_quarter', 0.1, 0.35) },
  ),
  f.quarter(
    'net_income_quarter',
    'NETINCQ',
    'Net income, quarter',
    'Quarterly net interest income plus total noninterest income plus realized gains (losses) on securities and extraordinary items, less total noninterest expense, loan loss provisions and income taxes.',
    { demo: share('net_income', 0.2, 0.35) },
  ),
  // definition: from FDIC title
  f.ytd(
    'cash_dividends',
    'EQCDIV',
    'Cash dividends declared',
    'Cash dividends declared on common and preferred stock, year to date.',
    { ffiec: 'RIAD4460 + RIAD4470', demo: share('net_income', 0.2, 0.7) },
  ),
];
