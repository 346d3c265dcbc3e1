/** The reliability suite's one judgement of a response: no 5xx, canonical problem documents. */
import type { LightMyRequestResponse } from 'fastify';

/** Returns a description of what is wrong with the response, or null. */
export function problemWith(url: string, response: LightMyRequestResponse): string | null {
  const status = response.statusCode;
  const type = String(response.headers['content-type'] ?? '');
  if (status < 400) return null;
  if (status >= 500) {
    // HEAD has no body; its 503 is the GET's data-unavailable problem
    const body = response.body ? JSON.parse(response.body) : { type: '/problems/data-unavailable' };
    const unavailable = status === 503 && body.type === '/problems/data-unavailable';
    return unavailable && type.startsWith('application/problem+json') ? null : `${status} ${response.body}`;
  }
  if (url.startsWith('/embed/') || response.body === '') return null; // HTML error pages; HEAD
  if (!type.startsWith('application/problem+json')) return `4xx with content-type ${type}`;
  const body = JSON.parse(response.body);
  const canonical =
    typeof body.type === 'string' &&
    typeof body.title === 'string' &&
    body.status === status &&
    typeof body.detail === 'string' &&
    typeof body.instance === 'string';
  if (!canonical) return `not a canonical problem document: ${response.body}`;
  if (status === 400 && body.type !== '/problems/invalid-parameter') return `400 of type ${body.type}`;
  if (status === 400 && body.errors !== undefined) {
    const ok =
      Array.isArray(body.errors) &&
      body.errors.every(
        (e: Record<string, unknown>) => typeof e.param === 'string' && typeof e.message === 'string',
      );
    if (!ok) return `malformed errors: ${JSON.stringify(body.errors)}`;
  }
  return null;
}
