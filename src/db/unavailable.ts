/**
 * Recognises "the database is away" errors (server restarting or shutting down, connections
 * refused or cut, pool exhausted, statement timeout, replica conflicts) so the API answers 503 and
 * the next request, on a fresh pooled connection, recovers by itself. Anything else stays a 500.
 */

/** PostgreSQL SQLSTATEs that mean "try again later", not "this request is wrong". */
const TRANSIENT_SQLSTATES = new Set([
  '57P01', // admin_shutdown (also pg_terminate_backend)
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now (starting up, recovery)
  '57014', // query_canceled: statement_timeout
  '53300', // too_many_connections
  '55000', // object_not_in_prerequisite_state: database not accepting connections
  '40001', // serialization_failure: on read replicas, "conflict with recovery"
  '3D000', // invalid_catalog_name: database dropped/renamed under us
]);

const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'SQLITE_BUSY', // an ingest holds the write lock longer than busy_timeout
]);

// node-postgres raises these as plain Errors without a code.
const PG_CONNECTION_MESSAGES = [
  /^Connection terminated/,
  /^timeout exceeded when trying to connect/,
  /^Client has encountered a connection error and is not queryable/,
  /^Query read timeout/,
];

function codeOf(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : '';
}

export function isDatabaseUnavailable(error: unknown, depth = 0): boolean {
  if (!(error instanceof Error) || depth > 3) return false;
  const code = codeOf(error);
  if (TRANSIENT_SQLSTATES.has(code) || code.startsWith('08') || NETWORK_CODES.has(code)) return true;
  if (PG_CONNECTION_MESSAGES.some((pattern) => pattern.test(error.message))) return true;
  // Node reports a refused multi-address connect as an AggregateError; wrappers keep a cause.
  const nested = [...((error as { errors?: unknown[] }).errors ?? []), (error as { cause?: unknown }).cause];
  return nested.some((inner) => isDatabaseUnavailable(inner, depth + 1));
}
