/** Regulatory capital: risk-based ratios and their amounts (SPEC §5); the leverage ratio is in core.ts. */

import type { FinancialField } from '../types.js';
import { fieldsOf, per, share } from './define.js';

const f = fieldsOf('capital');

export const CAPITAL_FIELDS: readonly FinancialField[] = [
  // definition: from FDIC title
  f.ratio(
    'cet1_ratio',
    'RBCT1CER',
    'Common equity tier 1 capital ratio',
    'Common equity tier 1 capital as a percent of risk-weighted assets.',
    { ffiec: 'RCFAP793|RCOAP793', ratio: per('cet1_capital', 'risk_weighted_assets') },
  ),
  // definition: from FDIC title
  f.ratio(
    'tier1_risk_based_ratio',
    'RBC1RWAJ',
    'Tier 1 risk-based capital ratio',
    'Tier 1 risk-based capital ratio (prompt corrective action): tier 1 capital as a percent of risk-weighted assets.',
    { ffiec: 'RCFA7206|RCOA7206|RCFD7206|RCON7206', ratio: per('tier1_capital', 'risk_weighted_assets') },
  ),
  // definition: from FDIC title
  f.ratio(
    'total_risk_based_ratio',
    'RBCRWAJ',
    'Total risk-based capital ratio',
    'Total risk-based capital ratio (prompt corrective action): total risk-based capital as a percent of risk-weighted assets.',
    {
      ffiec: 'RCFA7205|RCOA7205|RCFD7205|RCON7205',
      ratio: per('total_risk_based_capital', 'risk_weighted_assets'),
    },
  ),
  // definition: SDI
  f.stock(
    'risk_weighted_assets',
    'RWAJT',
    'Risk-weighted assets',
    'Total risk weighted assets are assets adjusted for risk-based capital definitions which include on-balance-sheet as well as off-balance-sheet items multiplied by specified risk-weights. A conversion factor is used to assign a balance sheet equivalent amount for selected off-balance-sheet accounts. As of March 2015, all institutions began reporting the amended CALL schedule RC-R Part I and Part II which incorporates the risk-based capital rules based on the Basel III framework and section 939A of the Dodd-Frank Act. Some designated Advanced Approaches institutions began reporting RC-R Part 1a based on the updated requirements as of March 2014. (See: FDIC Financial Institutions Letter FIL-24-2012) RIS data note: Prior to March 2014, this variable is the same as RIS variable RWAJ',
    { ffiec: 'RCFAA223|RCOAA223|RCFDA223|RCONA223', demo: share('total_assets', 0.5, 0.85) },
  ),
  // definition: SDI
  f.stock(
    'tier1_capital',
    'RBCT1J',
    'Tier 1 capital',
    'Tier 1 (core) capital includes: common equity plus noncumulative perpetual preferred stock plus minority interests in consolidated subsidiaries less goodwill and other ineligible intangible assets. The amount of eligible intangibles (including mortgage servicing rights) included in core capital is limited in accordance with supervisory capital regulations. As of March 2015, all institutions began reporting the amended CALL schedule RC-R Part I and Part II which incorporates Advanced Approaches Risk-Based Capital Rule based on the Basel III framework and section 939A of the Dodd-Frank Act. Some designated institutions began reporting based on the updated requirements as of March 2014. (See: FDIC Financial Institutions Letter FIL-24-2012)',
    { ffiec: 'RCFA8274|RCOA8274|RCFD8274|RCON8274', demo: share('total_equity', 0.88, 1.02) },
  ),
  // definition: from FDIC title
  f.stock(
    'cet1_capital',
    'RBCT1C',
    'Common equity tier 1 capital',
    'Common equity tier 1 capital (schedule RC-R).',
    { ffiec: 'RCFAP859|RCOAP859', demo: share('tier1_capital', 0.97, 1) },
  ),
  // definition: SDI
  f.stock(
    'tier2_capital',
    'RBCT2',
    'Tier 2 capital',
    'Risk-based capital-tier 2 is based on the risk-basedcapital definitions for prompt corrective action (PCA). Includible Tier 2 capital components consist of, but are not limited to, limited subordinated debt, cumulative perpetual preferred stock, allowance for loan and lease losses, total mandatory convertible debt and a portion of unrealized gains on available-for-sale equity securities. The maximum amount of supplementary capital elements that qualify as Tier 2 capital is limited to 100 percent of Tier 1 capital. In addition, the combined maximum amount of subordinated debt and intermediate-term preferred stock that qualifies as Tier 2 capital is limited to 50 percent of Tier 1 capital. As of March 2015, all institutions began reporting the amended CALL schedule RC-R Part I and Part II which incorporates Advanced Approaches Risk-Based Capital Rule based on the Basel III framework and section 939A of the Dodd-Frank Act. Some designated institutions began reporting based on the updated requirements as of March 2014. (See: FDIC Financial Institutions Letter FIL-24-2012)',
    { ffiec: 'RCFA5311|RCOA5311|RCFD5311|RCON5311', demo: share('tier1_capital', 0.03, 0.11) },
  ),
  // definition: from FDIC title
  f.stock(
    'total_risk_based_capital',
    'RBC',
    'Total risk-based capital',
    'Total risk-based capital (prompt corrective action definitions).',
    { ffiec: 'RCFA3792|RCOA3792|RCFD3792|RCON3792', demo: share('tier1_capital', 1.03, 1.12) },
  ),
  // definition: SDI
  f.stock(
    'average_assets_for_leverage',
    'AVASSETJ',
    'Average assets for leverage capital purposes',
    'As of March 2015, total average assets for leverage capital purposes according to the amended Market Risk Capital Rule. (see: FDIC Financial Institutions Letter FIL-24-1012 ) Advanced approaches institutions begin reporting a new calculation for this item beginning March 31, 2014 on schedule RC-R Part I.B. All institutions began the new schedule RC-R Part I and Part II as of March 31, 2015. Prior to the new RC-R requirements, average assets-adjusted based on the risk-based capital definitions for prompt corrective action (PCA) and includes: Call Reporters:Average assets (from schedule RC-K) - disallowed intangible assets - unrealized loss on equity securities - unrealized holding gains or losses on available-for-sale securities according to FASB 115 - adjustments for financial subsidiaries (Beginning in March 2001) Thrift Financial Reporters (before March 2012): Adjusted tangible assets (from schedule CCR)- unrealized holding gains or losses on available-for-sale securities adjusted according to FASB 115',
    { ffiec: 'RCFAA224|RCOAA224|RCFDA224|RCONA224', demo: share('total_assets', 0.95, 1.01) },
  ),
];
