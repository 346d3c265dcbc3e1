/**
 * The headers the front door (cache-front.ts) sends with a cached representation: captured once
 * from a response the full Fastify pipeline produced for it — so CORS, the security headers, the
 * embed widgets' CSP and anything a hook adds later are all there — and kept as flat
 * `[name, value, …]` arrays that `writeHead` takes as they are. The 304 variant drops the body's
 * own headers, as Fastify's 304s do. Only `X-Request-Id` differs per request: it is the last pair,
 * and its value is filled in just before writing.
 */
import type { Coding } from './cache-keys.js';

export interface RawHead {
  readonly ok: string[];
  readonly notModified: string[];
}

type Headers = Record<string, number | string | string[] | undefined>;

/** Headers that belong to one request or one connection, never to the representation. */
const PER_REQUEST = new Set([
  'x-request-id',
  'date',
  'connection',
  'keep-alive',
  'transfer-encoding',
  'retry-after',
]);
/** Describe the body: absent from a 304. */
const BODY_HEADERS = new Set(['content-type', 'content-length', 'content-encoding', 'content-disposition']);

/**
 * The head to replay for a representation of `length` bytes in `coding`, from the headers a 200
 * was sent with; null when they do not describe exactly that body (then nothing is replayed).
 */
export function captureHead(headers: Headers, length: number, coding: Coding): RawHead | null {
  if (String(headers['content-length']) !== String(length)) return null;
  if ((headers['content-encoding'] ?? 'identity') !== coding) return null;
  const ok: string[] = [];
  const notModified: string[] = [];
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || PER_REQUEST.has(name) || name.includes('ratelimit')) continue;
    for (const one of Array.isArray(value) ? value : [value]) {
      ok.push(name, String(one));
      if (!BODY_HEADERS.has(name)) notModified.push(name, String(one));
    }
  }
  ok.push('x-request-id', '');
  notModified.push('x-request-id', '');
  return { ok, notModified };
}
