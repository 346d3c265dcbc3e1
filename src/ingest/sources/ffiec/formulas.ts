/**
 * The financial record computed from one bank's call report (formulas in docs/ingest-banking.md).
 * Amounts stay in thousands of USD; ratios are percent. Income items (RIAD) are year-to-date, so
 * ratios built on them are annualised by 12 / months elapsed in the year, as FDIC's YTD ratios are.
 */
import type { Insertable } from 'kysely';
import type { FinancialsTable } from '../../../db/tables.js';
import { FieldError } from '../values.js';

type Items = ReadonlyMap<string, string>;

function item(items: Items, code: string): number | null {
  const raw = items.get(code);
  if (raw === undefined) return null;
  const value = Number(raw.replace(/,/g, ''));
  if (!Number.isFinite(value)) throw new FieldError(`invalid ${code} (not a number)`);
  return value;
}

/** The first reported of several codes (consolidated RCFD before domestic RCON). */
function either(items: Items, ...codes: string[]): number | null {
  for (const code of codes) {
    const value = item(items, code);
    if (value !== null) return value;
  }
  return null;
}

function sum(...values: (number | null)[]): number | null {
  const present = values.filter((v): v is number => v !== null);
  return present.length === 0 ? null : present.reduce((a, b) => a + b, 0);
}

function percent(numerator: number | null, denominator: number | null): number | null {
  if (numerator === null || denominator === null || denominator === 0) return null;
  return (100 * numerator) / denominator;
}

export function callReportRow(cert: number, reportDate: string, items: Items): Insertable<FinancialsTable> {
  const annualise = 12 / Number(reportDate.slice(5, 7));
  const assets = either(items, 'RCFD2170', 'RCON2170');
  const deposits = sum(item(items, 'RCON2200'), item(items, 'RCFN2200'));
  const equity = either(items, 'RCFD3210', 'RCON3210');
  const loans = either(items, 'RCFD2122', 'RCON2122');
  const allowance = either(items, 'RCFD3123', 'RCON3123');
  const netIncome = item(items, 'RIAD4340');
  const interestIncome = item(items, 'RIAD4107');
  const interestExpense = item(items, 'RIAD4073');
  const revenue =
    interestIncome === null || interestExpense === null
      ? null
      : sum(interestIncome - interestExpense, item(items, 'RIAD4079'));
  const noncurrent = sum(either(items, 'RCFD1407', 'RCON1407'), either(items, 'RCFD1403', 'RCON1403'));
  const chargeOffs = item(items, 'RIAD4635');
  const netChargeOffs = chargeOffs === null ? null : chargeOffs - (item(items, 'RIAD4605') ?? 0);
  const annualised = (value: number | null) => (value === null ? null : value * annualise);
  return {
    cert,
    report_date: reportDate,
    total_assets: assets,
    total_deposits: deposits,
    total_loans: loans,
    total_equity: equity,
    net_income: netIncome,
    roa: percent(annualised(netIncome), assets),
    roe: percent(annualised(netIncome), equity),
    efficiency_ratio: percent(item(items, 'RIAD4093'), revenue),
    npl_ratio: percent(noncurrent, loans),
    tier1_leverage: either(items, 'RCFA7204', 'RCOA7204', 'RCFD7204', 'RCON7204'),
    equity_ratio: percent(equity, assets),
    loan_to_deposit: percent(loans === null ? null : loans - (allowance ?? 0), deposits),
    charge_off_rate: percent(annualised(netChargeOffs), loans),
    source: 'ffiec',
  };
}
