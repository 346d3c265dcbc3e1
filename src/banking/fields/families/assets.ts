/** Assets and their parts: cash, money-market assets, premises, real estate owned, intangibles (SPEC §5). */

import type { FinancialField } from '../types.js';
import { fieldsOf, part, share } from './define.js';

const f = fieldsOf('assets');

export const ASSET_FIELDS: readonly FinancialField[] = [
  // definition: SDI
  f.stock(
    'cash_and_due',
    'CHBAL',
    'Cash and balances due from depository institutions',
    'Total cash and balances due from depository institutions including both interest-bearing and noninterest-bearing balances.',
    { ffiec: 'RCFD0081|RCON0081 + RCFD0071|RCON0071', demo: share('total_assets', 0.02, 0.15) },
  ),
  // definition: SDI
  f.stock(
    'interest_bearing_balances',
    'CHBALI',
    'Interest-bearing balances due from depository institutions',
    'Savings or time balances, including certificates of deposit, that are due from other depository institutions. Does not include certificates of deposit held in trading accounts.',
    { ffiec: 'RCFD0071|RCON0071', demo: part('cash_and_due', 0.4, 0.85) },
  ),
  // definition: from FDIC title
  f.stock(
    'noninterest_bearing_cash',
    'CHBALNI',
    'Noninterest-bearing cash and balances due',
    'Noninterest-bearing cash and balances due from depository institutions.',
    { ffiec: 'RCFD0081|RCON0081', demo: part('cash_and_due', 0.15, 0.6) },
  ),
  // definition: SDI
  f.stock(
    'fed_funds_sold_and_reverse_repos',
    'FREPO',
    'Federal funds sold and reverse repurchase agreements',
    'Total federal funds sold and securities purchased under agreements to resell in domestic offices. Includes only federal Funds sold for TRF Reporters before March 1998.',
    { ffiec: 'RCONB987 + RCFDB989|RCONB989', demo: share('total_assets', 0, 0.03) },
  ),
  // definition: SDI
  f.stock(
    'trading_assets',
    'TRADE',
    'Trading account assets',
    'Securities and other assets acquired with the intent to resell in order to profit from short-term price movements. Effective January 1, 1994, this item includes revaluation gains. This item is included in securities for TFR Reporters.',
    { ffiec: 'RCFD3545|RCON3545', demo: share('total_assets', 0, 0.001) },
  ),
  // definition: SDI
  f.stock(
    'premises_and_fixed_assets',
    'BKPREM',
    'Bank premises and fixed assets',
    'Bank premises, furniture and fixtures, equipment and other assets representing bank premises (including capitalized leases) owned by the institution.',
    { ffiec: 'RCFD2145|RCON2145', demo: share('total_assets', 0.004, 0.025) },
  ),
  // definition: SDI
  f.stock(
    'other_real_estate_owned',
    'ORE',
    'Other real estate owned',
    'Total other real estate owned on a consolidated basis. Includes direct and indirect investments in real estate. The amount is reflected net of valuation allowances. For Thrift Financial Reporters, the valuation allowances include allowances for other repossessed assets.',
    { ffiec: 'RCFD2150|RCON2150', demo: share('total_assets', 0, 0.003) },
  ),
  // definition: SDI
  f.stock(
    'intangible_assets',
    'INTAN',
    'Goodwill and other intangible assets',
    'Intangible assets include goodwill, mortgage servicing rights, purchased credit card relationships and other identifiable intangible assets.',
    { ffiec: 'RCFD2143|RCON2143', demo: share('total_assets', 0, 0.012) },
  ),
  // definition: from FDIC title
  f.stock('goodwill', 'INTANGW', 'Goodwill', 'Goodwill (part of intangible assets).', {
    ffiec: 'RCFD3163|RCON3163',
    demo: share('intangible_assets', 0.6, 0.9),
  }),
  // definition: from FDIC title
  f.stock(
    'mortgage_servicing_assets',
    'INTANMSR',
    'Mortgage servicing assets',
    'Mortgage servicing assets (part of intangible assets).',
    { ffiec: 'RCFD3164|RCON3164', demo: share('intangible_assets', 0, 0.2) },
  ),
  // definition: from FDIC title
  f.stock('other_assets', 'OA', 'Other assets', 'Other assets.', {
    demo: share('total_assets', 0.008, 0.045),
  }),
  // definition: SDI
  f.stock(
    'earning_assets',
    'ERNAST',
    'Total earning assets',
    'All loans and other investments that earn interest or dividend income.',
    { demo: share('total_assets', 0.89, 0.96) },
  ),
];
