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
import { ifNoneMatchHits, negotiateCoding } from './cache-keys.js';
import type { ResponseStore } from './cache-store.js';
import { requestId } from './request-id.js';
import type { RequestMeter } from './request-meter.js';

const DONE = 'request completed';

/** How long a dataset-version check stays good for later requests of the same event-loop turn. */
const CHECK_COVERS_MS = 1;

/**
 * Checks the dataset version at the first request of each event-loop turn, and again whenever
 * CHECK_COVERS_MS has passed (a turn can hold a slow synchronous SQLite query). The requests a turn
 * answers were read when it began or, after such a query, within the last millisecond, so an answer
 * reflects every load committed before its request arrived, give or take that millisecond. On
 * SQLite the check (`PRAGMA data_version`: a read transaction and its file locks, 2–6 µs) cost more
 * than the rest of a cached answer when it ran for every request.
 */
function versionChecker(check: () => void): (now: number) => void {
  let checkedAt = Number.NEGATIVE_INFINITY;
  let inTurn = false;
  const nextTurn = () => {
    inTurn = false;
  };
  return (now) => {
    if (inTurn && now - checkedAt < CHECK_COVERS_MS) return;
    if (!inTurn) {
      inTurn = true;
      setImmediate(nextTurn);
    }
    checkedAt = now;
    check();
  };
}

/** Answers the request and returns true, or returns false to leave it to Fastify. */
export type FrontAnswer = (request: IncomingMessage, response: ServerResponse) => boolean;

export function cacheFront(
  store: ResponseStore,
  watch: VersionWatch,
  meter: RequestMeter,
  log: FastifyBaseLogger,
): FrontAnswer {
  const noticeLoads = versionChecker(() => watch.current());
  return (request, response) => {
    if (request.method !== 'GET') return false;
    const started = performance.now();
    noticeLoads(started);
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
    // The access line Fastify's path writes (access-log.ts), in the same shape.
    log.info({ reqId: id, method: 'GET', url: request.url, statusCode: status, responseTime: elapsed }, DONE);
    return true;
  };
}
