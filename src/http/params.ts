/**
 * Parameter schemas shared by both APIs. Annotations (`x-kind`, `x-clamp`, `x-error`) drive the
 * normaliser in normalize.ts, which turns query strings into typed values and words every error;
 * Ajv then validates the result as a safety net, and @fastify/swagger documents it.
 */
import { Type } from 'typebox';

export type ParamKind = 'integer' | 'number' | 'enum' | 'date' | 'state' | 'string' | 'upper';

export function limitParam(defaultValue: number, max: number) {
  return Type.Integer({
    minimum: 1,
    default: defaultValue,
    'x-clamp': max,
    'x-error': `must be an integer between 1 and ${max}`,
    description: `Page size: default ${defaultValue}, maximum ${max} (larger values are clamped to ${max}; the envelope's \`limit\` reports the value applied)`,
  });
}

export const offsetParam = Type.Integer({
  minimum: 0,
  default: 0,
  'x-error': 'must be an integer of 0 or more',
  description: 'Number of records to skip (pagination offset), default 0',
});

export const stateParam = Type.String({
  pattern: '^[A-Z]{2}$',
  'x-kind': 'state',
  'x-error': 'must be a two-letter USPS state or territory code',
  description: 'Two-letter USPS state or territory code, case-insensitive (50 states, DC and territories)',
});

export function dateParam(description: string) {
  return Type.String({
    pattern: '^\\d{4}-\\d{2}-\\d{2}$',
    'x-kind': 'date',
    'x-error': 'must be a real calendar date in YYYY-MM-DD form',
    description,
  });
}

export function enumParam<const T extends readonly string[]>(
  values: T,
  description: string,
  defaultValue?: T[number],
) {
  return Type.Enum([...values] as T[number][], {
    ...(defaultValue === undefined ? {} : { default: defaultValue }),
    'x-error': `must be one of: ${values.join(', ')}`,
    description: `${description}. One of ${values.map((v) => `\`${v}\``).join(', ')} (case-insensitive)`,
  });
}

export function numberParam(description: string) {
  return Type.Number({ 'x-error': 'must be a finite number', description });
}

export function searchParam(description: string, maxLength = 100) {
  return Type.String({
    maxLength,
    'x-error': `must be at most ${maxLength} characters`,
    description: `${description}; case-insensitive substring, at most ${maxLength} characters; empty means absent`,
  });
}

/** Keywords our schemas carry that Ajv must accept as annotations. */
export const ANNOTATION_KEYWORDS = ['x-kind', 'x-clamp', 'x-error'];
