/**
 * The call-report field catalogue (SPEC §5): every field regdata serves from `financials`. Adding a
 * field is one entry in a family file (plus a demo rule when the demo cannot derive it); everything
 * else reads this list.
 */
import { ASSET_QUALITY_FIELDS } from './families/asset-quality.js';
import { ASSET_FIELDS } from './families/assets.js';
import { CAPITAL_FIELDS } from './families/capital.js';
import { CORE_FIELDS } from './families/core.js';
import { DEPOSIT_FIELDS } from './families/deposits.js';
import { INCOME_FIELDS } from './families/income.js';
import { LIABILITY_EQUITY_FIELDS } from './families/liabilities-equity.js';
import { LOAN_FIELDS } from './families/loans.js';
import { PERFORMANCE_FIELDS } from './families/performance.js';
import { SECURITY_FIELDS } from './families/securities.js';
import { STRUCTURE_FIELDS } from './families/structure.js';
import type { FinancialField } from './types.js';

/** The 13 core fields first, then the families in SPEC §5 order. */
export const FINANCIAL_FIELDS: readonly FinancialField[] = [
  ...CORE_FIELDS,
  ...ASSET_FIELDS,
  ...SECURITY_FIELDS,
  ...LOAN_FIELDS,
  ...DEPOSIT_FIELDS,
  ...LIABILITY_EQUITY_FIELDS,
  ...INCOME_FIELDS,
  ...CAPITAL_FIELDS,
  ...ASSET_QUALITY_FIELDS,
  ...PERFORMANCE_FIELDS,
  ...STRUCTURE_FIELDS,
];

const BY_NAME = new Map(FINANCIAL_FIELDS.map((field) => [field.name, field]));

export function financialField(name: string): FinancialField | undefined {
  return BY_NAME.get(name);
}

export const FIELD_NAMES: readonly string[] = FINANCIAL_FIELDS.map((field) => field.name);
