/**
 * preValidation hook: turns raw query and path strings into typed values following each route's
 * schema, and collects every bad parameter into one 400. Rules (SPEC §1): empty → absent,
 * repeated → 400, integers base-10 only, numbers finite, enums case-insensitive, states upper-cased
 * USPS codes, dates real calendar days, `limit` clamped to its maximum, ranges ordered.
 */
import type { FastifyRequest } from 'fastify';
import { USPS_CODES } from '../usps-codes.js';
import { invalidParams, type ParamError } from './problem.js';

interface PropertySchema {
  type?: string;
  default?: unknown;
  enum?: string[];
  minimum?: number;
  maximum?: number;
  maxLength?: number;
  pattern?: string;
  'x-kind'?: string;
  'x-clamp'?: number;
  'x-error'?: string;
}

interface ObjectSchema {
  properties?: Record<string, PropertySchema>;
  required?: string[];
}

/** Extra checks a route declares in its `config`. */
export interface ParamRules {
  /** Pairs [low, high] of parameters where low must not exceed high. */
  ranges?: [string, string][];
  /** Checks across parameters or against lists (e.g. series IDs); run on the typed values. */
  check?: (values: Record<string, unknown>, request: FastifyRequest) => ParamError[] | Promise<ParamError[]>;
  /** Undeclared parameters the route still reads (so the response cache keys on them). */
  keyed?: (name: string) => boolean;
}

const USPS = new Set<string>(USPS_CODES);
const INTEGER = /^[+-]?\d+$/;
const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

export function isCalendarDate(value: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

function describe(schema: PropertySchema): string {
  if (schema['x-error']) return schema['x-error'];
  if (schema.enum) return `must be one of: ${schema.enum.join(', ')}`;
  if (schema.type === 'integer') return 'must be a base-10 integer';
  if (schema.type === 'number') return 'must be a finite number';
  return 'is invalid';
}

/** Converts one raw value; returns the typed value or an error message. */
function convert(raw: string, schema: PropertySchema): { value: unknown } | { error: string } {
  const fail = { error: describe(schema) };
  const kind = schema['x-kind'];
  if (schema.enum) {
    const match = schema.enum.find((allowed) => allowed.toLowerCase() === raw.toLowerCase());
    return match === undefined ? fail : { value: match };
  }
  if (schema.type === 'integer' || schema.type === 'number') {
    if (!(schema.type === 'integer' ? INTEGER : DECIMAL).test(raw)) return fail;
    const value = Number(raw);
    if (!Number.isFinite(value) || (schema.type === 'integer' && !Number.isSafeInteger(value))) return fail;
    if (schema.minimum !== undefined && value < schema.minimum) return fail;
    if (schema.maximum !== undefined && value > schema.maximum) return fail;
    const clamp = schema['x-clamp'];
    return { value: clamp !== undefined && value > clamp ? clamp : value };
  }
  if (kind === 'state') {
    const value = raw.toUpperCase();
    return USPS.has(value) ? { value } : fail;
  }
  if (kind === 'date') return isCalendarDate(raw) ? { value: raw } : fail;
  const value = kind === 'upper' ? raw.toUpperCase() : raw;
  // Said as such: a list over its length limit is otherwise told only that it "is invalid".
  if (schema.maxLength !== undefined && [...value].length > schema.maxLength)
    return { error: schema['x-error'] ?? `must be at most ${schema.maxLength} characters` };
  if (schema.pattern !== undefined && !new RegExp(schema.pattern).test(value)) return fail;
  return { value };
}

/** Normalises one parameter object in place; returns the errors found. */
export function normalizeParams(
  input: Record<string, unknown>,
  schema: ObjectSchema | undefined,
): ParamError[] {
  const errors: ParamError[] = [];
  for (const [param, propertySchema] of Object.entries(schema?.properties ?? {})) {
    const raw = input[param];
    if (raw === undefined) continue;
    if (Array.isArray(raw)) {
      errors.push({ param, message: 'must be given at most once' });
      delete input[param];
      continue;
    }
    const trimmed = String(raw).trim();
    if (trimmed === '') {
      delete input[param];
      continue;
    }
    const result = convert(trimmed, propertySchema);
    if ('error' in result) {
      errors.push({ param, message: result.error });
      delete input[param];
    } else {
      input[param] = result.value;
    }
  }
  for (const param of schema?.required ?? []) {
    const hasDefault = schema?.properties?.[param]?.default !== undefined;
    if (!hasDefault && input[param] === undefined && !errors.some((e) => e.param === param)) {
      errors.push({ param, message: 'is required' });
    }
  }
  return errors;
}

function checkRanges(values: Record<string, unknown>, ranges: [string, string][]): ParamError[] {
  const errors: ParamError[] = [];
  for (const [low, high] of ranges) {
    const a = values[low];
    const b = values[high];
    if (a !== undefined && b !== undefined && (a as number | string) > (b as number | string)) {
      errors.push({ param: low, message: `must not be greater than ${high}` });
    }
  }
  return errors;
}

export async function normalizeRequest(request: FastifyRequest): Promise<void> {
  const schema = request.routeOptions.schema as
    | { querystring?: ObjectSchema; params?: ObjectSchema }
    | undefined;
  if (!schema) return;
  const rules = (request.routeOptions.config as { params?: ParamRules } | undefined)?.params;
  const query = (request.query ?? {}) as Record<string, unknown>;
  const params = (request.params ?? {}) as Record<string, unknown>;
  const errors = [...normalizeParams(params, schema.params), ...normalizeParams(query, schema.querystring)];
  const values = { ...params, ...query };
  const checked = new Set(errors.map((e) => e.param));
  const extra = [
    ...checkRanges(values, rules?.ranges ?? []),
    ...((await rules?.check?.(values, request)) ?? []),
  ];
  errors.push(...extra.filter((e) => !checked.has(e.param)));
  if (errors.length > 0) throw invalidParams(errors);
}
