/**
 * `format=csv` on every list endpoint, generically: an onRoute hook declares the `format`
 * parameter on every GET route whose 200 response is a list (an envelope with a `data` array, or a
 * top-level array), and a preSerialization hook turns that list into CSV (RFC 4180, header row,
 * `text/csv; charset=utf-8`, `Content-Disposition: attachment`). Nested objects are flattened into
 * `parent.child` columns; nested arrays are written as JSON text; null is an empty cell. Lists
 * longer than STREAM_ROWS are streamed rather than built in memory.
 */

import { type Options, stringify } from 'csv-stringify';
import { stringify as stringifySync } from 'csv-stringify/sync';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { enumParam } from './params.js';

export const STREAM_ROWS = 5000;

export const formatParam = enumParam(
  ['json', 'csv'],
  'Response format: `json` (the default envelope) or `csv` (only the records, as CSV with a header row; `text/csv`)',
  'json',
);

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Set by registerCsv on list routes: the route answers `format=csv`. */
    csvList?: boolean;
    /** The CSV columns, from the record schema (`parent.child` for nested objects). */
    csvColumns?: string[];
  }
}

interface JsonSchema {
  type?: string;
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
}

/** Column names of a record schema; a nullable object (anyOf with an object) is flattened too. */
function schemaColumns(schema: JsonSchema | undefined, prefix = ''): string[] {
  const properties = schema?.properties ?? schema?.anyOf?.find((s) => s.properties)?.properties;
  if (!properties) return [];
  return Object.entries(properties).flatMap(([name, property]) => {
    const nested = schemaColumns(property, `${prefix}${name}.`);
    return nested.length > 0 ? nested : [prefix + name];
  });
}

function isListSchema(schema: JsonSchema | undefined): boolean {
  return schema?.type === 'array' || schema?.properties?.data?.type === 'array';
}

function addFormatParam(route: RouteOptions): void {
  const methods = Array.isArray(route.method) ? route.method : [route.method];
  const schema = route.schema as
    | { querystring?: JsonSchema; response?: Record<string, JsonSchema> }
    | undefined;
  if (!methods.includes('GET') || !schema || !isListSchema(schema.response?.['200'])) return;
  const querystring = schema.querystring ?? { type: 'object', properties: {} };
  if (querystring.properties?.format) return; // the route defines its own `format`
  schema.querystring = {
    ...querystring,
    properties: { ...querystring.properties, format: formatParam as JsonSchema },
  };
  const response = schema.response?.['200'] as JsonSchema;
  const items = response.type === 'array' ? response.items : response.properties?.data?.items;
  route.config = { ...route.config, csvList: true, csvColumns: schemaColumns(items) };
}

/** Flattens one record: nested objects become `a.b` columns, arrays JSON text. */
function flatten(record: Record<string, unknown>, prefix = '', into: Record<string, unknown> = {}) {
  for (const [name, value] of Object.entries(record)) {
    const column = prefix + name;
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
      flatten(value as Record<string, unknown>, `${column}.`, into);
    } else {
      into[column] = Array.isArray(value) ? JSON.stringify(value) : value;
    }
  }
  return into;
}

function columnsOf(request: FastifyRequest, rows: Record<string, unknown>[]): string[] {
  const columns = new Set<string>(request.routeOptions.config.csvColumns ?? []);
  for (const row of rows.slice(0, 100)) for (const column of Object.keys(row)) columns.add(column);
  return [...columns];
}

const CSV_OPTIONS: Options = {
  header: true,
  cast: { boolean: (value) => (value ? 'true' : 'false') },
};

function fileName(request: FastifyRequest): string {
  const segments = (request.routeOptions.url ?? 'data').split('/').filter((s) => s && !s.startsWith(':'));
  return (segments.at(-1) ?? 'data').replace(/[^A-Za-z0-9_-]/g, '') || 'data';
}

function toCsv(request: FastifyRequest, reply: FastifyReply, payload: unknown): unknown {
  const list = Array.isArray(payload) ? payload : (payload as { data?: unknown } | null)?.data;
  if (!Array.isArray(list)) return payload;
  const rows = list.map((record) => flatten(record as Record<string, unknown>));
  const options = { ...CSV_OPTIONS, columns: columnsOf(request, rows) };
  reply
    .type('text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${fileName(request)}.csv"`)
    .serializer((body: unknown) => body as string);
  if (rows.length > STREAM_ROWS) return stringify(rows, options);
  if (options.columns.length === 0) return ''; // no schema and no rows: nothing to write
  return stringifySync(rows, options);
}

/**
 * Whether the request asks for CSV: a handler that writes its JSON answer itself (json-buffer.ts)
 * returns the records instead, for the hook below to turn into CSV.
 */
export function wantsCsv(request: FastifyRequest): boolean {
  return (request.query as { format?: string }).format === 'csv';
}

export function registerCsv(app: FastifyInstance): void {
  app.addHook('onRoute', addFormatParam);
  app.addHook('preSerialization', async (request, reply, payload) => {
    if (!request.routeOptions.config.csvList || reply.statusCode !== 200) return payload;
    if (!wantsCsv(request)) return payload;
    return toCsv(request, reply, payload);
  });
}
