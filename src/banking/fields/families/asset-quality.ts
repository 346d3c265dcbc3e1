/** Asset quality: past due, nonaccrual and noncurrent loans, charge-offs and recoveries, reserve ratios (SPEC §5). */

import type { FinancialField } from '../types.js';
import { fieldsOf, part, per, share } from './define.js';

const f = fieldsOf('asset_quality');

export const ASSET_QUALITY_FIELDS: readonly FinancialField[] = [
  // definition: from FDIC title
  f.stock(
    'past_due_30_89',
    'P3LNLS',
    'Loans 30–89 days past due',
    'Loans and leases past due 30 to 89 days (still accruing).',
    { ffiec: 'RCFD1406|RCON1406', demo: share('total_loans', 0.002, 0.012) },
  ),
  // definition: from FDIC title
  f.stock(
    'past_due_90_plus',
    'P9LNLS',
    'Loans 90+ days past due',
    'Loans and leases past due 90 days or more (still accruing).',
    { ffiec: 'RCFD1407|RCON1407', demo: part('noncurrent_loans', 0.05, 0.3) },
  ),
  // definition: from FDIC title
  f.stock('nonaccrual_loans', 'NALNLS', 'Nonaccrual loans', 'Loans and leases in nonaccrual status.', {
    ffiec: 'RCFD1403|RCON1403',
    demo: part('noncurrent_loans', 0.7, 0.95),
  }),
  // definition: SDI
  f.stock(
    'noncurrent_loans',
    'NCLNLS',
    'Noncurrent loans and leases',
    'Assets past due 90 days or more, plus assets placed in nonaccrual status.',
    { ffiec: 'RCFD1407|RCON1407 + RCFD1403|RCON1403', demo: share('total_loans', 0.001, 0.015) },
  ),
  // definition: from FDIC title
  f.stock(
    'noncurrent_construction_loans',
    'NCRECONS',
    'Noncurrent construction loans',
    'Total noncurrent construction and land development loans (past due 90 days or more plus nonaccrual).',
    { demo: share('construction_loans', 0, 0.02) },
  ),
  // definition: from FDIC title
  f.stock(
    'noncurrent_multifamily_loans',
    'NCREMULT',
    'Noncurrent multifamily loans',
    'Total noncurrent multifamily residential real estate loans (past due 90 days or more plus nonaccrual).',
    { demo: share('multifamily_loans', 0, 0.02) },
  ),
  // definition: from FDIC title
  f.stock(
    'noncurrent_nonfarm_nonres_loans',
    'NCRENRES',
    'Noncurrent nonfarm nonresidential loans',
    'Total noncurrent nonfarm nonresidential real estate loans (past due 90 days or more plus nonaccrual).',
    { demo: share('nonfarm_nonres_loans', 0, 0.02) },
  ),
  // definition: from FDIC title
  f.stock(
    'noncurrent_residential_loans',
    'NCRERES',
    'Noncurrent 1–4 family loans',
    'Total noncurrent 1-4 family residential real estate loans (past due 90 days or more plus nonaccrual).',
    { demo: share('residential_loans', 0, 0.02) },
  ),
  // definition: from FDIC title
  f.stock(
    'noncurrent_ci_loans',
    'NCCI',
    'Noncurrent C&I loans',
    'Total noncurrent commercial and industrial loans (past due 90 days or more plus nonaccrual).',
    { demo: share('ci_loans', 0, 0.02) },
  ),
  // definition: from FDIC title
  f.stock(
    'noncurrent_consumer_loans',
    'NCCON',
    'Noncurrent consumer loans',
    'Total noncurrent consumer loans (past due 90 days or more plus nonaccrual).',
    { demo: share('consumer_loans', 0, 0.02) },
  ),
  // definition: from FDIC title
  f.stock(
    'noncurrent_credit_card_loans',
    'NCCRCD',
    'Noncurrent credit card loans',
    'Total noncurrent credit card plan loans (past due 90 days or more plus nonaccrual).',
    { demo: share('credit_card_loans', 0, 0.04) },
  ),
  // definition: from FDIC title
  f.ytd(
    'gross_charge_offs',
    'DRLNLS',
    'Gross charge-offs',
    'Total loan and lease charge-offs, year to date.',
    { ffiec: 'RIAD4635', demo: share('total_loans', 0.0005, 0.006) },
  ),
  // definition: from FDIC title
  f.ytd('recoveries', 'CRLNLS', 'Recoveries', 'Total loan and lease recoveries, year to date.', {
    ffiec: 'RIAD4605',
    demo: part('gross_charge_offs', 0.1, 0.4),
  }),
  // definition: from FDIC title
  f.ytd(
    'net_charge_offs',
    'NTLNLS',
    'Net charge-offs',
    'Total loan and lease net charge-offs (charge-offs less recoveries), year to date.',
    { ffiec: 'RIAD4635 - RIAD4605', demo: part('gross_charge_offs', 0.6, 0.9) },
  ),
  // definition: from FDIC title
  f.quarter(
    'net_charge_offs_quarter',
    'NTLNLSQ',
    'Net charge-offs, quarter',
    'Total loan and lease net charge-offs (charge-offs less recoveries) for the quarter.',
    { demo: share('total_loans', 0, 0.0015) },
  ),
  // definition: from FDIC title
  f.ytd(
    'net_charge_offs_construction',
    'NTRECONS',
    'Net charge-offs on construction loans',
    'Net charge-offs on construction real estate loans, year to date.',
    { demo: share('construction_loans', 0, 0.005) },
  ),
  // definition: from FDIC title
  f.ytd(
    'net_charge_offs_multifamily',
    'NTREMULT',
    'Net charge-offs on multifamily loans',
    'Net charge-offs on multifamily residential real estate loans, year to date.',
    { demo: share('multifamily_loans', 0, 0.005) },
  ),
  // definition: from FDIC title
  f.ytd(
    'net_charge_offs_nonfarm_nonres',
    'NTRENRES',
    'Net charge-offs on nonfarm nonresidential loans',
    'Net charge-offs on nonfarm nonresidential real estate loans, year to date.',
    { demo: share('nonfarm_nonres_loans', 0, 0.005) },
  ),
  // definition: from FDIC title
  f.ytd(
    'net_charge_offs_residential',
    'NTRERES',
    'Net charge-offs on 1–4 family loans',
    'Net charge-offs on 1-4 family residential real estate loans, year to date.',
    { demo: share('residential_loans', 0, 0.005) },
  ),
  // definition: from FDIC title
  f.ytd(
    'net_charge_offs_ci',
    'NTCI',
    'Net charge-offs on C&I loans',
    'Net charge-offs on commercial and industrial loans, year to date.',
    { demo: share('ci_loans', 0, 0.005) },
  ),
  // definition: from FDIC title
  f.ytd(
    'net_charge_offs_consumer',
    'NTCON',
    'Net charge-offs on consumer loans',
    'Net charge-offs on consumer loans, year to date.',
    { demo: share('consumer_loans', 0, 0.005) },
  ),
  // definition: from FDIC title
  f.ytd(
    'net_charge_offs_credit_card',
    'NTCRCD',
    'Net charge-offs on credit card loans',
    'Net charge-offs on credit card loans, year to date.',
    { demo: share('credit_card_loans', 0, 0.06) },
  ),
  // definition: from FDIC title
  f.ytd(
    'net_charge_offs_auto',
    'NTAUTO',
    'Net charge-offs on auto loans',
    'Net charge-offs on automobile loans, year to date.',
    { demo: share('auto_loans', 0, 0.005) },
  ),
  // definition: from FDIC title
  f.ratio(
    'charge_off_rate_quarter',
    'NTLNLSQR',
    'Net charge-offs to loans, quarter',
    'Net charge-offs for the quarter as a percent of gross loans and leases.',
  ),
  // definition: from FDIC title
  f.ratio(
    'allowance_to_loans',
    'LNATRESR',
    'Allowance to loans',
    'Allowance for loan and lease losses as a percent of gross loans and leases.',
    { ratio: per('allowance_for_loan_losses', 'total_loans') },
  ),
  // definition: from FDIC title
  f.ratio(
    'allowance_to_noncurrent',
    'LNRESNCR',
    'Allowance to noncurrent loans',
    'Allowance for loan and lease losses as a percent of noncurrent loans and leases.',
    { ratio: per('allowance_for_loan_losses', 'noncurrent_loans') },
  ),
  // definition: from FDIC title
  f.ratio(
    'provision_to_net_charge_offs',
    'ELNANTR',
    'Provision to net charge-offs',
    'Provisions for loan and lease losses as a percent of net charge-offs.',
    { ratio: per('provision_for_credit_losses', 'net_charge_offs') },
  ),
  // definition: from FDIC title
  f.ratio(
    'nonperforming_assets_to_assets',
    'NPERFV',
    'Nonperforming assets to assets',
    'Nonperforming assets as a percent of total assets.',
  ),
  // definition: from FDIC title
  f.ratio(
    'noncurrent_construction_ratio',
    'NCRECONR',
    'Noncurrent construction loans to construction loans',
    'Noncurrent construction and land development loans as a percent of construction and land development loans.',
    { ratio: per('noncurrent_construction_loans', 'construction_loans') },
  ),
  // definition: from FDIC title
  f.ratio(
    'noncurrent_nonfarm_nonres_ratio',
    'NCRENRER',
    'Noncurrent nonfarm nonresidential loans to those loans',
    'Noncurrent nonfarm nonresidential real estate loans as a percent of nonfarm nonresidential real estate loans.',
    { ratio: per('noncurrent_nonfarm_nonres_loans', 'nonfarm_nonres_loans') },
  ),
  // definition: from FDIC title
  f.ratio(
    'noncurrent_residential_ratio',
    'NCRERESR',
    'Noncurrent 1–4 family loans to 1–4 family loans',
    'Noncurrent 1-4 family residential real estate loans as a percent of 1-4 family residential real estate loans.',
    { ratio: per('noncurrent_residential_loans', 'residential_loans') },
  ),
];
