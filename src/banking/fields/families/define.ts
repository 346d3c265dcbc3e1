/**
 * Compact constructors for the family files: one call per catalogue field, the unit following from
 * the kind (amounts in thousands of USD, ratios in percent, counts as numbers; SPEC §5).
 */
import type { DemoRule, FieldFamily, FieldKind, FieldUnit, FinancialField, RatioRule } from '../types.js';

/** What a field adds beyond its identity: FFIEC formula, ratio rule, demo rule. */
export type FieldExtra = Pick<FinancialField, 'ffiec' | 'ratio' | 'demo'>;

type Define = (
  name: string,
  fdic_field: string,
  title: string,
  description: string,
  extra?: FieldExtra,
) => FinancialField;

const UNIT: Record<FieldKind, FieldUnit> = {
  stock: 'thousands_usd',
  flow_ytd: 'thousands_usd',
  flow_quarter: 'thousands_usd',
  ratio: 'percent',
  count: 'count',
};

function define(family: FieldFamily, kind: FieldKind): Define {
  return (name, fdic_field, title, description, extra = {}) => ({
    name,
    fdic_field,
    unit: UNIT[kind],
    kind,
    family,
    title,
    description,
    ...extra,
  });
}

/** `stock` (balance at the report date), `ytd` (year to date), `quarter` (the quarter alone), … */
export function fieldsOf(family: FieldFamily) {
  return {
    stock: define(family, 'stock'),
    ytd: define(family, 'flow_ytd'),
    quarter: define(family, 'flow_quarter'),
    ratio: define(family, 'ratio'),
    count: define(family, 'count'),
  };
}

/** Demo: one part of `total` (all parts of a total are scaled to sum to it). */
export const part = (total: string, low: number, high: number): DemoRule => ({
  partOf: total,
  weight: [low, high],
});

/** Demo: a fraction of `of`, independent of its siblings. */
export const share = (of: string, low: number, high: number): DemoRule => ({
  shareOf: of,
  range: [low, high],
});

/** Demo: a count per 1 billion USD of `of`. */
export const perBillion = (of: string, low: number, high: number): DemoRule => ({
  perBillion: [low, high],
  of,
});

/** 100 × numerator / denominator; a year-to-date numerator annualised when `annualised`. */
export const per = (
  numerator: string | readonly string[],
  denominator: string | readonly string[],
  annualised = false,
): RatioRule => (annualised ? { numerator, denominator, annualised } : { numerator, denominator });
