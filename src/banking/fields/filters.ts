/**
 * The query grammar over catalogue fields (SPEC §5), declared once: `fields=a,b`, `sortBy=<field>`,
 * and `{field}__gte|__gt|__lte|__lt` (finite numbers) and `{field}__isnull=true|false`. Every bad
 * name, operator or value becomes one entry of the 400's `errors`, unknown names with the nearest
 * catalogue names (Levenshtein distance).
 */
import { closest, distance } from 'fastest-levenshtein';
import type { ParamError } from '../../http/problem.js';
import { FIELD_NAMES, financialField } from './catalogue.js';

export const FILTER_OPERATORS = {
  gte: { sql: '>=', says: 'at least' },
  gt: { sql: '>', says: 'greater than' },
  lte: { sql: '<=', says: 'at most' },
  lt: { sql: '<', says: 'less than' },
  isnull: { sql: null, says: 'is null (true) or is not null (false)' },
} as const;

export type FilterOperator = keyof typeof FILTER_OPERATORS;

export type FieldFilter =
  | { readonly field: string; readonly op: Exclude<FilterOperator, 'isnull'>; readonly value: number }
  | { readonly field: string; readonly op: 'isnull'; readonly value: boolean };

const OPERATORS = Object.keys(FILTER_OPERATORS) as FilterOperator[];
const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
const SEPARATOR = '__';

/** Up to three catalogue names close to `name`, closest first. */
export function nearestFieldNames(name: string): string[] {
  const lower = name.toLowerCase();
  const ranked = FIELD_NAMES.map((field) => ({ field, d: distance(lower, field) }))
    .filter(({ field, d }) => d <= Math.max(3, Math.floor(field.length / 2)) || field.includes(lower))
    .sort((a, b) => a.d - b.d || a.field.localeCompare(b.field));
  const names = ranked.slice(0, 3).map(({ field }) => field);
  return names.length > 0 ? names : [closest(lower, FIELD_NAMES as string[])];
}

export function unknownField(name: string): string {
  return `unknown field "${name}"; nearest: ${nearestFieldNames(name).join(', ')} (GET /api/v1/fields lists every field)`;
}

/** `fields=a,b,c`: catalogue names, trimmed, case-insensitive, duplicates dropped. */
export function parseFieldList(raw: string, param: string): { fields: string[]; errors: ParamError[] } {
  const fields: string[] = [];
  const errors: ParamError[] = [];
  for (const part of raw.split(',')) {
    const name = part.trim().toLowerCase();
    if (name === '') continue;
    if (!financialField(name)) errors.push({ param, message: unknownField(name) });
    else if (!fields.includes(name)) fields.push(name);
  }
  if (fields.length === 0 && errors.length === 0) errors.push({ param, message: 'names no field' });
  return { fields, errors };
}

function filterValue(op: FilterOperator, raw: string): number | boolean | undefined {
  if (op === 'isnull') {
    const flag = raw.toLowerCase();
    return flag === 'true' ? true : flag === 'false' ? false : undefined;
  }
  if (!DECIMAL.test(raw)) return undefined;
  const value = Number(raw);
  return Number.isFinite(value) ? value : undefined;
}

function parseFilter(param: string, raw: unknown): FieldFilter | ParamError | null {
  const at = param.lastIndexOf(SEPARATOR);
  const name = param.slice(0, at).toLowerCase();
  const op = param.slice(at + SEPARATOR.length).toLowerCase() as FilterOperator;
  if (!OPERATORS.includes(op)) {
    return {
      param,
      message: `unknown operator "__${op}"; allowed: ${OPERATORS.map((o) => `__${o}`).join(', ')}`,
    };
  }
  if (!financialField(name)) return { param, message: unknownField(name) };
  if (Array.isArray(raw)) return { param, message: 'must be given at most once' };
  const text = String(raw ?? '').trim();
  if (text === '') return null;
  const value = filterValue(op, text);
  if (value === undefined) {
    return { param, message: op === 'isnull' ? 'must be true or false' : 'must be a finite number' };
  }
  return { field: name, op, value } as FieldFilter;
}

/** A parameter of the filter grammar (`name__op`); other undeclared parameters are ignored. */
export function isFilterParam(param: string): boolean {
  return param.lastIndexOf(SEPARATOR) > 0;
}

/** Every `{field}__{operator}` parameter of a query string (other parameters are not filters). */
export function parseFieldFilters(query: Record<string, unknown>): {
  filters: FieldFilter[];
  errors: ParamError[];
} {
  const filters: FieldFilter[] = [];
  const errors: ParamError[] = [];
  for (const [param, raw] of Object.entries(query)) {
    if (!isFilterParam(param)) continue;
    const parsed = parseFilter(param, raw);
    if (parsed === null) continue;
    if ('message' in parsed) errors.push(parsed);
    else filters.push(parsed);
  }
  return { filters, errors };
}
