/** TypeBox schemas and OpenAPI text generated from the catalogue: every field says its unit and source. */
import { Type } from 'typebox';
import { FINANCIAL_FIELDS } from './catalogue.js';
import type { FieldKind, FieldUnit, FinancialField } from './types.js';

const UNIT_TEXT: Record<FieldUnit, string> = {
  thousands_usd: 'thousands of USD',
  percent: 'percent (1.05 means 1.05 %)',
  count: 'a count',
};

const KIND_TEXT: Record<FieldKind, string> = {
  stock: 'balance at the report date',
  flow_ytd: 'year to date',
  flow_quarter: 'the quarter alone',
  ratio: 'ratio',
  count: 'count at the report date',
};

export function fieldDescription(field: FinancialField): string {
  return `${field.title} (${KIND_TEXT[field.kind]}), ${UNIT_TEXT[field.unit]}; FDIC BankFind \`${field.fdic_field}\`: ${field.description} Null when not reported.`;
}

/** Every catalogue field as an optional, nullable number property (for records that carry some). */
export const catalogueProperties = Object.fromEntries(
  FINANCIAL_FIELDS.map((field) => [
    field.name,
    Type.Optional(Type.Union([Type.Number(), Type.Null()], { description: fieldDescription(field) })),
  ]),
);

const nullableText = (description: string) => Type.Union([Type.String(), Type.Null()], { description });

export const FieldEntry = Type.Object({
  name: Type.String({ description: 'Field name: the financials column, `fields=` and filter name' }),
  fdic_field: Type.String({ description: 'FDIC BankFind `/financials` field the value comes from' }),
  unit: Type.Union(
    (Object.keys(UNIT_TEXT) as FieldUnit[]).map((u) => Type.Literal(u)),
    { description: 'thousands_usd (amounts), percent (ratios: 1.05 means 1.05 %) or count' },
  ),
  kind: Type.Union(
    (Object.keys(KIND_TEXT) as FieldKind[]).map((k) => Type.Literal(k)),
    { description: 'stock (balance at the report date), flow_ytd, flow_quarter, ratio or count' },
  ),
  family: Type.String({ description: 'Field family, e.g. loans, income, capital, asset_quality' }),
  title: Type.String({ description: 'Short title' }),
  description: Type.String({ description: "FDIC's definition of the field" }),
  ffiec_formula: nullableText(
    'FFIEC call-report items (MDRM codes) regdata computes the value from for FFIEC rows: `+`/`-` terms, `|` alternatives (first reported wins); null when FFIEC rows leave it null or derive it as a ratio',
  ),
  ratio_of: Type.Union(
    [
      Type.Object({
        numerator: Type.Array(Type.String()),
        denominator: Type.Array(Type.String()),
        annualised: Type.Boolean(),
      }),
      Type.Null(),
    ],
    {
      description:
        'For ratios FFIEC rows and the demo compute: 100 × sum(numerator) / sum(denominator), the numerator annualised when it is year to date; null otherwise (FDIC rows carry FDIC’s own ratio)',
    },
  ),
});

const list = (value: string | readonly string[]) => (typeof value === 'string' ? [value] : [...value]);

export function toFieldEntry(field: FinancialField) {
  return {
    name: field.name,
    fdic_field: field.fdic_field,
    unit: field.unit,
    kind: field.kind,
    family: field.family,
    title: field.title,
    description: field.description,
    ffiec_formula: field.ffiec ?? null,
    ratio_of: field.ratio
      ? {
          numerator: list(field.ratio.numerator),
          denominator: list(field.ratio.denominator),
          annualised: field.ratio.annualised ?? false,
        }
      : null,
  };
}
