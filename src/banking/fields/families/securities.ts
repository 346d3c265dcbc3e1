/** Investment securities: available for sale and held to maturity, at amortised cost and fair value, by type (SPEC §5). */

import type { FinancialField } from '../types.js';
import { fieldsOf, part, share } from './define.js';

const f = fieldsOf('securities');

export const SECURITY_FIELDS: readonly FinancialField[] = [
  // definition: SDI
  f.stock(
    'securities',
    'SC',
    'Total securities',
    "Total investment securities (excludes securities held in trading accounts). The full implementation of FASB 115 became effective as of January 1, 1994. Beginning on that date, a portion of banks' securities portfolios are reported based upon fair (market) values;previously, all securities not held in trading accounts were reported at either amortized cost or the lower of cost or market. A negative Total Securities indicates a TFR Reporters. with assets held in trading accounts exceeding total securities.",
    { demo: share('total_assets', 0.03, 0.35) },
  ),
  // definition: from FDIC title
  f.stock(
    'securities_afs_fair_value',
    'SCAF',
    'Available-for-sale securities (fair value)',
    'Securities available for sale, as carried on the balance sheet (at fair value).',
    { ffiec: 'RCFD1773|RCON1773', demo: part('securities', 0.55, 0.85) },
  ),
  // definition: from FDIC title
  f.stock(
    'securities_afs_amortized_cost',
    'SCAA',
    'Available-for-sale securities at amortized cost',
    'Total available-for-sale securities at amortized cost, on a consolidated basis.',
    { ffiec: 'RCFD1772|RCON1772', demo: share('securities_afs_fair_value', 0.98, 1.12) },
  ),
  // definition: from FDIC title
  f.stock(
    'securities_htm_amortized_cost',
    'SCHA',
    'Held-to-maturity securities (amortized cost)',
    'Securities held to maturity, as carried on the balance sheet (at amortized cost).',
    { ffiec: 'RCFD1754|RCON1754', demo: part('securities', 0.1, 0.4) },
  ),
  // definition: from FDIC title
  f.stock(
    'securities_htm_fair_value',
    'SCHF',
    'Held-to-maturity securities at fair value',
    'Total held-to-maturity securities at fair value, on a consolidated basis.',
    { ffiec: 'RCFD1771|RCON1771', demo: share('securities_htm_amortized_cost', 0.85, 1.02) },
  ),
  // definition: from FDIC title
  f.stock('equity_securities', 'SCEQ', 'Equity securities', 'Equity securities.', {
    demo: part('securities', 0, 0.03),
  }),
  // definition: from FDIC title
  f.stock('us_treasury_securities', 'SCUST', 'U.S. Treasury securities', 'U.S. Treasury securities.', {
    demo: share('securities', 0.02, 0.25),
  }),
  // definition: from FDIC title
  f.stock(
    'municipal_securities',
    'SCMUNI',
    'Municipal securities',
    'Municipal securities (securities issued by states and political subdivisions in the U.S.).',
    { demo: share('securities', 0.1, 0.35) },
  ),
  // definition: from FDIC title
  f.stock(
    'mortgage_backed_securities',
    'SCMTGBK',
    'Mortgage-backed securities',
    'Mortgage-backed securities.',
    { demo: share('securities', 0.25, 0.55) },
  ),
];
