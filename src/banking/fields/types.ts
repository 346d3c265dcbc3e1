/**
 * The shape of one call-report field in the catalogue (catalogue.ts). One entry drives the FDIC
 * ingest mapping, the FFIEC formula, the column and its migration, the TypeBox schema and OpenAPI
 * text, CSV columns, filters and sorting, peers and aggregates, the demo and the widget metrics.
 */

/** SPEC §5: amounts in thousands of USD, ratios in percent (1.05 = 1.05 %), counts as numbers. */
export type FieldUnit = 'thousands_usd' | 'percent' | 'count';

/** `stock`: balance at the report date; `flow_ytd`: year to date; `flow_quarter`: the quarter alone. */
export type FieldKind = 'stock' | 'flow_ytd' | 'flow_quarter' | 'ratio' | 'count';

export type FieldFamily =
  | 'assets'
  | 'securities'
  | 'loans'
  | 'deposits'
  | 'liabilities_equity'
  | 'income'
  | 'capital'
  | 'asset_quality'
  | 'performance'
  | 'structure';

/**
 * FFIEC call-report items (MDRM codes) giving the value: terms joined by ` + ` or ` - `; within a
 * term, alternatives separated by `|`, the first one reported wins (consolidated RCFD before
 * domestic RCON). Example: `RCFD2170|RCON2170`, `RCON2200 + RCFN2200`, `RIAD4635 - RIAD4605`.
 * A term none of whose alternatives is reported counts as absent; the value is null when every
 * term is absent.
 */
export type MdrmFormula = string;

/**
 * A ratio computed from other catalogue amounts, for rows FDIC did not compute (FFIEC rows, the
 * demo): 100 × numerator / denominator, the numerator annualised (× 12 / months elapsed) when it is
 * a year-to-date flow. FDIC's own rows carry FDIC's ratio (which averages the denominator).
 */
export interface RatioRule {
  /** A field, or several summed. */
  readonly numerator: string | readonly string[];
  readonly denominator: string | readonly string[];
  readonly annualised?: boolean;
}

/**
 * How the demo generates an amount the demo's base model does not (src/demo/banking/financials.ts):
 * `partOf`: one part of a total, drawn with a weight in the range, all parts of a total scaled so
 *   that they sum to it exactly;
 * `shareOf`: a fraction (in the range) of another field, independent of its siblings;
 * `perBillion`: a count per 1 billion USD (1,000,000 thousands) of `of`, at least 1.
 */
export type DemoRule =
  | { readonly partOf: string; readonly weight: readonly [number, number] }
  | { readonly shareOf: string; readonly range: readonly [number, number] }
  | { readonly perBillion: readonly [number, number]; readonly of: string };

export interface FinancialField {
  /** Column and API name, snake_case; never renamed once published. */
  readonly name: string;
  /** The FDIC BankFind `/financials` field (reference/fdic-financials-definitions.yaml). */
  readonly fdic_field: string;
  /** Codes read, in order, when a record lacks `fdic_field` (older BankFind exports name it so). */
  readonly fdic_alternates?: readonly string[];
  readonly unit: FieldUnit;
  readonly kind: FieldKind;
  readonly family: FieldFamily;
  /** Short human title. */
  readonly title: string;
  /** FDIC's own definition of `fdic_field` (from its field file), in full. */
  readonly description: string;
  /** How an FFIEC call report gives the value (absent: FFIEC rows leave it null or derive it). */
  readonly ffiec?: MdrmFormula;
  /** How FFIEC rows and the demo compute the value when it is a ratio of other fields. */
  readonly ratio?: RatioRule;
  /** How the demo generates it (absent for the demo model's base fields and for ratios). */
  readonly demo?: DemoRule;
}
