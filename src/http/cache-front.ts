/**
 * The cache's front door: answers GETs of URLs the response cache already holds straight from the
 * Node `request` event, before Fastify builds its request and reply objects, request id, child
 * logger and hook chain — which cost more than the whole answer. Anything else (an unknown URL, a
 * coding not compressed yet, a representation whose headers were not recorded yet, HEAD, every
 * other method) returns false and goes to Fastify, whose own cache hooks (cache.ts) answer or fill
 * the cache. A hit sends exactly the headers Fastify sent for that representation (cache-head.ts)
 * with this request's X-Request-Id, or a 304 when If-None-Match matches (weak comparison); it is
 * counted in the request and cache-hit metrics and logged in the access log like Fastify's own
 * requests (one line, access-log.ts).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyBaseLogger } from 'fastify';
import type { VersionWatch } from '../db/version-watch.js';
import { logAccess } from './access-log.js';
import { ifNoneMatchHits, negotiateCoding } from './cache-keys.js';
import type { ResponseStore } from './cache-store.js';
import { requestId } from './request-id.js';
import type { RequestMeter } from './request-meter.js';

/** Answers the request and returns true, or returns false to leave it to Fastify. */
export type FrontAnswer = (request: IncomingMessage, response: ServerResponse) => boolean;

export function cacheFront(
  store: ResponseStore,
  watch: VersionWatch,
  meter: RequestMeter,
  log: FastifyBaseLogger,
): FrontAnswer {
  return (request, response) => {
    if (request.method !== 'GET') return false;
    const started = performance.now();
    // Notices a committed load (and empties the store) before the lookup: once per event-loop turn.
    watch.current();
    const alias = store.aliasOf(request.url as string);
    if (alias === undefined) return false;
    const headers = request.headers;
    const entry = store.find(alias.key, negotiateCoding(headers['accept-encoding']));
    const head = entry?.head;
    if (!entry || !head) return false;
    meter.cacheLookup(true);
    const id = requestId(headers['x-request-id']);
    let status = 200;
    if (ifNoneMatchHits(headers['if-none-match'], entry.etag)) {
      status = 304;
      head.notModified[head.notModified.length - 1] = id;
      response.writeHead(304, head.notModified);
      response.end();
    } else {
      head.ok[head.ok.length - 1] = id;
      response.writeHead(200, head.ok);
      response.end(entry.body);
    }
    const elapsed = performance.now() - started;
    alias.slot.record(status, elapsed / 1000);
    // The access line Fastify's path writes (access-log.ts).
    logAccess(log, {
      reqId: id,
      method: 'GET',
      url: request.url as string,
      statusCode: status,
      responseTime: elapsed,
    });
    return true;
  };
}
