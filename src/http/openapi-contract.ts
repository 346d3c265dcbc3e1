/**
 * What the route schemas leave implicit, made explicit in the OpenAPI document so that standard
 * linters (Redocly's recommended rules), validating proxies (Prism) and client generators accept it:
 * - every operation gets a stable `operationId` derived from its path (below), unless its route
 *   schema names one;
 * - problem responses are declared as `application/problem+json`, the media type the API sends;
 * - every operation lists the 4xx problems any request can meet: 400 (a malformed request, e.g.
 *   bad percent-encoding) and 429 (when RATE_LIMIT_MAX enables rate limiting);
 * - list operations that take `format=csv` declare their `text/csv` answer beside the JSON one;
 * - query parameters with a default are optional: they are non-optional in the TypeBox schemas (so
 *   handlers see a typed value once Ajv fills the default), but a client may always omit them.
 */

interface Parameter {
  in: string;
  name: string;
  required?: boolean;
  schema?: { default?: unknown; enum?: unknown[] };
}

interface MediaType {
  schema?: { $ref?: string; type?: string; description?: string };
}

interface Response {
  description: string;
  content?: Record<string, MediaType>;
}

interface Operation {
  operationId?: string;
  parameters?: Parameter[];
  responses?: Record<string, Response>;
}

export interface OpenApiDocument {
  paths?: Record<string, Record<string, Operation>>;
}

const PROBLEM_REF = '#/components/schemas/Problem';
const PROBLEM_MEDIA_TYPE = 'application/problem+json';
/** Exempt from rate limiting (src/http/rate-limit.ts): they never answer 429. */
const UNLIMITED_PATHS = new Set(['/healthz', '/readyz', '/metrics']);

const problem = (description: string): Response => ({
  description,
  content: { [PROBLEM_MEDIA_TYPE]: { schema: { $ref: PROBLEM_REF } } },
});

const MALFORMED = problem(
  'Malformed request (for example an invalid percent-encoding): a problem document naming the parameter',
);
const RATE_LIMITED = problem(
  'Too many requests: only when rate limiting is enabled (RATE_LIMIT_MAX > 0); `Retry-After` says when to retry',
);
const CSV = {
  schema: {
    type: 'string',
    description:
      '`format=csv`: RFC 4180 CSV with a header row, the records only (nested objects as `parent.child` columns)',
  },
};

const pascal = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);

/**
 * `/api/v1/banks/{cert}/profile` → `bankingBanksByCertProfile`, `/api/holdings/{cik}` →
 * `holdingsHoldingsByCik`, `/embed/{cert}/{metric}.svg` → `embedByCertByMetricSvg`: the family
 * (the paths of the two services overlap, e.g. `/api/v1/macro` and `/api/macro`), then each
 * segment, parameters as `By<Name>`. Stable as long as the path is, which the contract already is.
 */
export function operationIdOf(path: string): string {
  const family = path.startsWith('/api/v1/')
    ? 'banking'
    : path.startsWith('/api/')
      ? 'holdings'
      : path.startsWith('/embed/')
        ? 'embed'
        : '';
  const segments = path.split('/').filter((s) => s && !['api', 'v1', 'embed'].includes(s));
  const words = segments.flatMap((segment) =>
    segment
      .split(/[^A-Za-z0-9{}]+/)
      .filter(Boolean)
      .map((part) => (part.startsWith('{') ? `By${pascal(part.slice(1, -1))}` : part)),
  );
  const id = [family, ...words].filter(Boolean).map(pascal).join('');
  return id.charAt(0).toLowerCase() + id.slice(1);
}

function isProblem(media: MediaType | undefined): boolean {
  return media?.schema?.$ref === PROBLEM_REF;
}

function completeOperation(path: string, operation: Operation): void {
  operation.operationId ??= operationIdOf(path);
  for (const parameter of operation.parameters ?? []) {
    if (parameter.in === 'query' && parameter.schema?.default !== undefined) parameter.required = false;
  }
  operation.responses ??= {};
  const responses = operation.responses;
  for (const response of Object.values(responses)) {
    const problemMedia = Object.values(response.content ?? {}).find(isProblem);
    if (problemMedia) response.content = { [PROBLEM_MEDIA_TYPE]: problemMedia };
  }
  responses['400'] ??= MALFORMED;
  if (!UNLIMITED_PATHS.has(path)) responses['429'] ??= RATE_LIMITED;
  const format = operation.parameters?.find((p) => p.in === 'query' && p.name === 'format');
  const ok = responses['200'];
  if (format?.schema?.enum?.includes('csv') && ok?.content) ok.content['text/csv'] ??= CSV;
}

export function completeContract<T extends OpenApiDocument>(document: T): T {
  for (const [path, operations] of Object.entries(document.paths ?? {})) {
    for (const operation of Object.values(operations)) completeOperation(path, operation);
  }
  return document;
}
