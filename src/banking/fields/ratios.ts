/**
 * Ratios computed from catalogue amounts (RatioRule in types.ts), for the rows FDIC did not compute:
 * FFIEC call reports and the demo. A year-to-date numerator is annualised by 12 / months elapsed.
 */
import { FINANCIAL_FIELDS } from './catalogue.js';
import type { FinancialRow } from './row.js';
import type { RatioRule } from './types.js';

const RATIO_FIELDS = FINANCIAL_FIELDS.filter((field) => field.ratio !== undefined);

function total(row: FinancialRow, names: string | readonly string[]): number | null {
  let sum: number | null = null;
  for (const name of typeof names === 'string' ? [names] : names) {
    const value = row[name];
    if (typeof value === 'number') sum = (sum ?? 0) + value;
  }
  return sum;
}

export function ratioOf(rule: RatioRule, row: FinancialRow): number | null {
  const numerator = total(row, rule.numerator);
  const denominator = total(row, rule.denominator);
  if (numerator === null || denominator === null || denominator === 0) return null;
  const annualise = rule.annualised ? 12 / Number(row.report_date.slice(5, 7)) : 1;
  return (100 * numerator * annualise) / denominator;
}

/** Fills every ratio field the row has no value for. */
export function fillRatios(row: FinancialRow): FinancialRow {
  for (const field of RATIO_FIELDS) {
    if (row[field.name] === null || row[field.name] === undefined)
      row[field.name] = ratioOf(field.ratio!, row);
  }
  return row;
}
