/**
 * The request id every response carries as `X-Request-Id` (and every log line as `reqId`): the
 * caller's own when it is sane, otherwise a new UUID. Shared by Fastify's genReqId and the cache's
 * front door (src/http/cache-front.ts), so both paths answer alike.
 */
import { randomUUID } from 'node:crypto';

const SANE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export function requestId(incoming: string | string[] | undefined): string {
  return typeof incoming === 'string' && SANE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
}
