/**
 * The financial record computed from one bank's call report: every catalogue field with an FFIEC
 * formula (MdrmFormula in src/banking/fields/types.ts), then the ratios from their amounts. Amounts
 * stay in thousands of USD; ratios are percent; income items (RIAD) are year to date, so ratios on
 * them are annualised by 12 / months elapsed, as FDIC's YTD ratios are (docs/ingest-banking.md).
 */
import { FINANCIAL_FIELDS } from '../../../banking/fields/catalogue.js';
import { fillRatios } from '../../../banking/fields/ratios.js';
import type { FinancialRow } from '../../../banking/fields/row.js';
import { FieldError } from '../../core/errors.js';

type Items = ReadonlyMap<string, string>;

/** One signed term: the first reported of its alternatives. */
interface Term {
  readonly sign: 1 | -1;
  readonly codes: readonly string[];
}

export function parseFormula(formula: string): Term[] {
  const parts = formula.trim().split(/\s+([+-])\s+/);
  const terms: Term[] = [{ sign: 1, codes: parts[0]!.split('|') }];
  for (let i = 1; i < parts.length; i += 2) {
    terms.push({ sign: parts[i] === '-' ? -1 : 1, codes: parts[i + 1]!.split('|') });
  }
  return terms;
}

const FORMULAS = FINANCIAL_FIELDS.filter((field) => field.ffiec !== undefined).map((field) => ({
  name: field.name,
  terms: parseFormula(field.ffiec!),
}));

function item(items: Items, code: string): number | null {
  const raw = items.get(code);
  if (raw === undefined) return null;
  const value = Number(raw.replace(/,/g, ''));
  if (!Number.isFinite(value)) throw new FieldError(`invalid ${code} (not a number)`);
  return value;
}

/** Null when no term is reported; an unreported term counts as 0 beside reported ones. */
function evaluate(terms: readonly Term[], items: Items): number | null {
  let sum: number | null = null;
  for (const term of terms) {
    for (const code of term.codes) {
      const value = item(items, code);
      if (value === null) continue;
      sum = (sum ?? 0) + term.sign * value;
      break;
    }
  }
  return sum;
}

export function callReportRow(cert: number, reportDate: string, items: Items): FinancialRow {
  // The call report does not name the holding company; BankFind's financials do.
  const row: FinancialRow = {
    cert,
    report_date: reportDate,
    holding_company: null,
    holding_company_rssd: null,
    source: 'ffiec',
  };
  for (const field of FINANCIAL_FIELDS) row[field.name] = null;
  for (const { name, terms } of FORMULAS) row[name] = evaluate(terms, items);
  return fillRatios(row);
}
