/** Borrowings, other liabilities and the parts of equity capital (SPEC §5). */

import type { FinancialField } from '../types.js';
import { fieldsOf, part, share } from './define.js';

const f = fieldsOf('liabilities_equity');

export const LIABILITY_EQUITY_FIELDS: readonly FinancialField[] = [
  // definition: SDI
  f.stock(
    'total_liabilities',
    'LIAB',
    'Total liabilities',
    'Deposits and other borrowings, subordinated notes and debentures, limited-life preferred stock and related surplus, trading account liabilities and mortgage indebtedness.',
    { ffiec: 'RCFD2948|RCON2948', demo: share('total_assets', 0.83, 0.92) },
  ),
  // definition: SDI
  f.stock(
    'fed_funds_purchased_and_repos',
    'FREPP',
    'Federal funds purchased and repurchase agreements',
    'Total federal funds purchased and securities sold under agreements to repurchase in domestic offices. Thrift Financial Reports include only federal funds purchased.',
    { ffiec: 'RCONB993 + RCFDB995|RCONB995', demo: share('total_assets', 0, 0.02) },
  ),
  // definition: from FDIC title
  f.stock('other_borrowed_money', 'OTHBOR', 'Other borrowed money', 'Other borrowed money.', {
    ffiec: 'RCFD3190|RCON3190',
    demo: share('total_assets', 0, 0.08),
  }),
  // definition: SDI
  f.stock(
    'fhlb_advances',
    'OTHBFHLB',
    'Federal Home Loan Bank advances',
    "Borrowings or 'advances' from Federal Home Loan Banks (FHLB). Prior to March 2001 this item is only available for TFR Reporters, institutions that file a Thrift Financial Report.",
    { demo: share('other_borrowed_money', 0.6, 1) },
  ),
  // definition: SDI
  f.stock(
    'subordinated_debt',
    'SUBND',
    'Subordinated notes and debentures',
    'A subordinated note or debenture is a form of debt issued by a bank or a consolidated subsidiary. As of March 1997, includes limited-life preferred stock and related surplus.',
    { ffiec: 'RCFD3200|RCON3200', demo: share('total_assets', 0, 0.002) },
  ),
  // definition: SDI
  f.stock(
    'trading_liabilities',
    'TRADEL',
    'Trading liabilities',
    'Starting in 1994, includes liability for short positions and revaluation losses on interest rate, foreign exchange rate, and other commodity and equity contracts. This item is not available for TFR Reporters.',
    { ffiec: 'RCFD3548|RCON3548', demo: share('total_assets', 0, 0.0005) },
  ),
  // definition: from FDIC title
  f.stock('other_liabilities', 'ALLOTHL', 'All other liabilities', 'All other liabilities.', {
    demo: share('total_assets', 0.002, 0.012),
  }),
  // definition: SDI
  f.stock(
    'total_equity_capital',
    'EQTOT',
    'Total equity capital (including noncontrolling interests)',
    'Total equity capital on a consolidated basis note: 1) beginning march 2009, includes the non-controlling (minority) interests in consolidated subsidiaries for CALL report and TFR filers.',
    { ffiec: 'RCFDG105|RCONG105', demo: share('total_equity', 1, 1.002) },
  ),
  // definition: SDI
  f.stock(
    'noncontrolling_interests',
    'EQCONSUB',
    'Noncontrolling (minority) interests in consolidated subsidiaries',
    'Non-controlling (minority) interests in consolidated subsidiaries, equity capital component. note: 1) beginning March 2009, total equity includes the non-controlling (minority) interests in consolidated subsidiaries for CALL report and TFR filers.',
    { ffiec: 'RCFD3000|RCON3000', demo: share('total_equity', 0, 0.002) },
  ),
  // definition: SDI
  f.stock(
    'perpetual_preferred_stock',
    'EQPP',
    'Perpetual preferred stock',
    'Perpetual preferred stock is preferred stock that does not have a stated maturity date or that cannot be redeemed at the option of the holder. It includes those issues of preferred stock that automatically convert into common stock at a stated date.',
    { ffiec: 'RCFD3838|RCON3838', demo: part('total_equity', 0, 0.01) },
  ),
  // definition: SDI
  f.stock('common_stock', 'EQCS', 'Common stock', 'Common stock issued by the institution.', {
    ffiec: 'RCFD3230|RCON3230',
    demo: part('total_equity', 0.005, 0.06),
  }),
  // definition: SDI
  f.stock(
    'surplus',
    'EQSUR',
    'Surplus',
    "That portion of an institution's capital received for shares of stock sold in excess of par value (excludes all surplus related to preferred stock).",
    { ffiec: 'RCFD3839|RCON3839', demo: part('total_equity', 0.1, 0.5) },
  ),
  // definition: SDI
  f.stock(
    'undivided_profits',
    'EQUPTOT',
    'Undivided profits, AOCI and other equity components',
    'Undivided profits, capital reserves, net unrealized holdings gains (losses) on available-for-sale securities, other equity capital components, and accumulated gains (losses) on cash flow hedges.',
    {
      ffiec: 'RCFD3632|RCON3632 + RCFDB530|RCONB530 + RCFDA130|RCONA130',
      demo: part('total_equity', 0.4, 0.8),
    },
  ),
  // definition: from FDIC title
  f.ytd(
    'other_comprehensive_income',
    'EQCCOMPI',
    'Other comprehensive income, year to date',
    'Other comprehensive income, year to date (a change in equity capital).',
    { ffiec: 'RIADB511', demo: share('total_equity', -0.05, 0.03) },
  ),
];
