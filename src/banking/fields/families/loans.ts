/** Loans and leases by category, the allowance and net loans (SPEC §5). */

import type { FinancialField } from '../types.js';
import { fieldsOf, part, share } from './define.js';

const f = fieldsOf('loans');

export const LOAN_FIELDS: readonly FinancialField[] = [
  // definition: SDI
  f.stock(
    'net_loans',
    'LNLSNET',
    'Net loans and leases',
    'Total loans and lease financing receivables minus unearned income and loan loss allowances.',
    { ffiec: 'RCFD2122|RCON2122 - RCFD3123|RCON3123', demo: share('total_loans', 0.98, 0.993) },
  ),
  // definition: SDI
  f.stock(
    'allowance_for_loan_losses',
    'LNATRES',
    'Allowance for loan and lease losses',
    'Each bank must maintain an allowance (reserve) for loan and lease losses that is adequate to absorb estimated credit losses associated with its loan and lease portfolio (which also includes off-balance-sheet credit instruments).',
    { ffiec: 'RCFD3123|RCON3123', demo: share('total_loans', 0.007, 0.02) },
  ),
  // definition: SDI
  f.stock(
    'loans_held_for_sale',
    'LNLSSALE',
    'Loans and leases held for sale',
    'Loans and leases held for sale, a memoranda item only beginning in March 2001. The amount is included in total Loans and leases. This item is not filed by TFR Reporters.',
    { ffiec: 'RCFD5369|RCON5369', demo: share('total_loans', 0, 0.01) },
  ),
  // definition: from FDIC title
  f.stock('real_estate_loans', 'LNRE', 'Real estate loans', 'Loans secured by real estate.', {
    demo: share('total_loans', 0.55, 0.8),
  }),
  // definition: from FDIC title
  f.stock(
    'construction_loans',
    'LNRECONS',
    'Construction and land development loans',
    'Loans secured by real estate for construction and land development.',
    { ffiec: 'RCONF158 + RCONF159', demo: part('total_loans', 0.04, 0.12) },
  ),
  // definition: from FDIC title
  f.stock(
    'farmland_loans',
    'LNREAG',
    'Farmland loans',
    'Loans secured by farmland (agricultural real estate).',
    { ffiec: 'RCON1420', demo: part('total_loans', 0.01, 0.06) },
  ),
  // definition: from FDIC title
  f.stock(
    'multifamily_loans',
    'LNREMULT',
    'Multifamily residential real estate loans',
    'Loans secured by multifamily (5 or more) residential properties.',
    { ffiec: 'RCON1460', demo: part('total_loans', 0.02, 0.08) },
  ),
  // definition: from FDIC title
  f.stock(
    'nonfarm_nonres_loans',
    'LNRENRES',
    'Nonfarm nonresidential real estate loans',
    'Loans secured by nonfarm nonresidential properties.',
    { ffiec: 'RCONF160 + RCONF161', demo: part('total_loans', 0.15, 0.3) },
  ),
  // definition: from FDIC title
  f.stock(
    'nonfarm_nonres_owner_occupied_loans',
    'LNRENROW',
    'Owner-occupied nonfarm nonresidential loans',
    'Loans secured by owner-occupied nonfarm nonresidential properties.',
    { ffiec: 'RCONF160', demo: part('nonfarm_nonres_loans', 0.35, 0.55) },
  ),
  // definition: from FDIC title
  f.stock(
    'nonfarm_nonres_other_loans',
    'LNRENROT',
    'Other nonfarm nonresidential loans',
    'Loans secured by other (not owner-occupied) nonfarm nonresidential properties.',
    { ffiec: 'RCONF161', demo: part('nonfarm_nonres_loans', 0.45, 0.65) },
  ),
  // definition: from FDIC title
  f.stock(
    'residential_loans',
    'LNRERES',
    '1–4 family residential loans',
    'Loans secured by 1-4 family residential properties.',
    { ffiec: 'RCON1797 + RCON5367 + RCON5368', demo: part('total_loans', 0.18, 0.35) },
  ),
  // definition: from FDIC title
  f.stock(
    'home_equity_lines',
    'LNRELOC',
    'Home equity lines of credit',
    'Revolving, open-end loans secured by 1-4 family residential properties and extended under lines of credit.',
    { ffiec: 'RCON1797', demo: part('residential_loans', 0.05, 0.15) },
  ),
  // definition: from FDIC title
  f.stock(
    'residential_first_lien_loans',
    'LNRERSFM',
    '1–4 family first-lien loans',
    'Closed-end loans secured by first liens on 1-4 family residential properties.',
    { ffiec: 'RCON5367', demo: part('residential_loans', 0.8, 0.92) },
  ),
  // definition: from FDIC title
  f.stock(
    'residential_junior_lien_loans',
    'LNRERSF2',
    '1–4 family junior-lien loans',
    'Closed-end loans secured by junior (second) liens on 1-4 family residential properties.',
    { ffiec: 'RCON5368', demo: part('residential_loans', 0.02, 0.06) },
  ),
  // definition: from FDIC title
  f.stock(
    'commercial_real_estate_loans',
    'LNCOMRE',
    'Commercial real estate loans',
    'Commercial real estate loans.',
    { demo: share('total_loans', 0.25, 0.45) },
  ),
  // definition: from FDIC title
  f.stock('ci_loans', 'LNCI', 'Commercial and industrial loans', 'Commercial and industrial loans.', {
    ffiec: 'RCFD1763|RCON1766 + RCFD1764',
    demo: part('total_loans', 0.1, 0.2),
  }),
  // definition: from FDIC title
  f.stock(
    'agricultural_loans',
    'LNAG',
    'Agricultural production loans',
    'Loans to finance agricultural production and other loans to farmers.',
    { ffiec: 'RCFD1590|RCON1590', demo: part('total_loans', 0.01, 0.06) },
  ),
  // definition: from FDIC title
  f.stock(
    'consumer_loans',
    'LNCON',
    'Consumer loans',
    'Loans to individuals for household, family and other personal expenditures (consumer loans).',
    { demo: share('total_loans', 0.03, 0.1) },
  ),
  // definition: from FDIC title
  f.stock('credit_card_loans', 'LNCRCD', 'Credit card loans', 'Consumer loans under credit card plans.', {
    ffiec: 'RCFDB538|RCONB538',
    demo: part('total_loans', 0, 0.01),
  }),
  // definition: from FDIC title
  f.stock('auto_loans', 'LNAUTO', 'Automobile loans', 'Consumer loans for automobiles.', {
    ffiec: 'RCFDK137|RCONK137',
    demo: part('total_loans', 0.01, 0.05),
  }),
  // definition: from FDIC title
  f.stock('other_consumer_loans', 'LNCONOTH', 'Other consumer loans', 'Other consumer loans.', {
    ffiec: 'RCFDK207|RCONK207',
    demo: part('total_loans', 0.01, 0.04),
  }),
  // definition: from FDIC title
  f.stock(
    'other_loans',
    'LNOTHER',
    'Loans to nondepository financial institutions and other loans',
    'Loans to nondepository financial institutions and other loans.',
    { demo: part('total_loans', 0.01, 0.06) },
  ),
  // definition: from FDIC title
  f.stock('leases', 'LS', 'Lease financing receivables', 'Lease financing receivables (leases).', {
    ffiec: 'RCFD2165|RCON2165',
    demo: part('total_loans', 0, 0.02),
  }),
];
