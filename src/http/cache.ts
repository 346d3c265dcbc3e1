/**
 * Response caching for the data routes (`/api/…`, `/embed/…`). Data changes only when a load bumps
 * the dataset version, so every successful GET gets a strong ETag and Cache-Control, revalidations
 * answer 304 without touching the database, and serialised bodies (and their gzip/brotli variants)
 * are kept in memory (cache-store.ts). The cache is emptied the moment the version watch notices a
 * load, and a body computed under an older version is never stored.
 *
 * Most hits never get here: the front door (cache-front.ts) answers them before Fastify. These
 * hooks answer the rest — requests the front door passes on and `app.inject` — in two lookups: in
 * onRequest by the raw URL (an alias of a normalised key already seen, so a hot URL skips parameter
 * normalisation and validation), then in preHandler by the normalised key (`?state=tx` and
 * `?state=TX` share one entry). onResponse records the headers a stored representation went out
 * with, for the front door to replay.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config.js';
import type { VersionWatch } from '../db/version-watch.js';
import { captureHead } from './cache-head.js';
import { type Coding, etagFor, ifNoneMatchHits, negotiateCoding, normalisedKey } from './cache-keys.js';
import { type Entry, ResponseStore, variantOf } from './cache-store.js';
import type { RequestMeter } from './request-meter.js';

interface CacheState {
  readonly version: number;
  readonly coding: Coding;
  key?: string;
  /** The identity representation's ETag, once the key is known (a SHA-1 each: computed once). */
  etag?: string;
  /** Answered by the cache (or a 304): onSend leaves the reply alone. */
  done: boolean;
  /** The stored representation this GET was answered with, whose headers onResponse records. */
  served?: Entry;
}

declare module 'fastify' {
  interface FastifyRequest {
    cacheState: CacheState | null;
  }
  interface FastifyContextConfig {
    /**
     * `false` keeps a route out of the response cache and ETag handling; `'daily'` marks answers
     * that depend on the day as well as the data (their key and ETag carry the UTC day).
     */
    cache?: boolean | 'daily';
  }
}

function isCacheable(request: FastifyRequest): boolean {
  const url = request.routeOptions.url;
  if (url === undefined || request.routeOptions.config.cache === false) return false;
  if (request.method !== 'GET' && request.method !== 'HEAD') return false;
  return url.startsWith('/api/') || url.startsWith('/embed/');
}

/** Registers the cache hooks; returns the store (null with the cache disabled). */
export function registerResponseCache(
  app: FastifyInstance,
  config: Config,
  watch: VersionWatch,
  meter: RequestMeter,
): ResponseStore | null {
  const store =
    config.cacheEnabled && config.cacheMaxBytes > 0 ? new ResponseStore(config.cacheMaxBytes) : null;
  watch.onChange(() => store?.clear());

  const aliasRequest = (request: FastifyRequest, key: string) =>
    store?.alias(request.url, key, meter.slot('GET', request.routeOptions.url as string));

  const revalidationHeaders = (reply: FastifyReply, etag: string) =>
    reply.header('etag', etag).header('cache-control', config.cacheControl).header('vary', 'Accept-Encoding');

  const serve = (request: FastifyRequest, reply: FastifyReply, entry: Entry) => {
    const state = request.cacheState as CacheState;
    state.done = true;
    revalidationHeaders(reply, entry.etag);
    if (ifNoneMatchHits(request.headers['if-none-match'], entry.etag)) return reply.code(304).send();
    state.served = entry;
    reply.header('content-type', entry.type);
    if (entry.coding !== 'identity') reply.header('content-encoding', entry.coding);
    if (entry.disposition) reply.header('content-disposition', entry.disposition);
    return reply.send(entry.body);
  };

  app.decorateRequest('cacheState', null);

  // A callback hook, since it runs on every request the front door passes on.
  app.addHook('onRequest', (request, reply, done) => {
    if (!isCacheable(request)) return done();
    const state: CacheState = {
      version: watch.current(),
      coding: request.method === 'GET' ? negotiateCoding(request.headers['accept-encoding']) : 'identity',
      done: false,
    };
    request.cacheState = state;
    if (!store || request.method !== 'GET') return done();
    const alias = store.aliasOf(request.url);
    const entry = alias && store.lookup(alias.key, state.coding, state.version);
    if (!entry) return done();
    meter.cacheLookup(true);
    serve(request, reply, entry); // a reply sent from onRequest ends the chain without done()
  });

  app.addHook('preHandler', async (request, reply) => {
    const state = request.cacheState;
    if (!state || state.done) return;
    const key = normalisedKey(request);
    state.key = key;
    const etag = etagFor(key, state.version, 'identity');
    state.etag = etag;
    if (ifNoneMatchHits(request.headers['if-none-match'], etag)) {
      state.done = true;
      revalidationHeaders(reply, etagFor(key, state.version, state.coding));
      return reply.code(304).send();
    }
    if (!store || request.method !== 'GET') return;
    const entry = store.lookup(key, state.coding, state.version);
    meter.cacheLookup(entry !== undefined);
    if (!entry) return;
    aliasRequest(request, key);
    return serve(request, reply, entry);
  });

  app.addHook('onSend', async (request, reply, payload) => {
    const state = request.cacheState;
    if (!state || state.done || state.key === undefined || reply.statusCode !== 200) return payload;
    const key = state.key;
    const etag = state.etag ?? etagFor(key, state.version, 'identity');
    if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) {
      // A stream (large CSV): revalidatable, but neither stored nor compressed here.
      reply.header('cache-control', config.cacheControl);
      return payload;
    }
    const storing = store !== null && request.method === 'GET' && watch.current() === state.version;
    if (!storing && state.coding === 'identity') {
      // Neither stored nor compressed: the body goes out as it is (encoded once, by the socket write).
      revalidationHeaders(reply, etag);
      return payload;
    }
    const identity: Entry = {
      // A copy of exactly the body's size: a written answer's bytes are a view of a larger pooled
      // buffer (buffer-pool.ts) that goes back to the pool once sent, and the store counts bytes.
      body: Buffer.from(payload),
      type: String(reply.getHeader('content-type') ?? 'application/json; charset=utf-8'),
      disposition: reply.getHeader('content-disposition') as string | undefined,
      coding: 'identity',
      etag,
      head: null,
    };
    const chosen = variantOf(identity, key, state.version, state.coding);
    if (storing) {
      store.put(key, identity);
      if (chosen !== identity) store.put(key, chosen);
      aliasRequest(request, key);
      state.served = chosen;
    }
    revalidationHeaders(reply, chosen.etag);
    // The bytes just encoded, not the string again (a multi-megabyte answer was encoded twice).
    if (chosen === identity) return identity.body;
    reply.header('content-encoding', chosen.coding);
    return chosen.body;
  });

  app.addHook('onResponse', (request, reply, done) => {
    const served = request.cacheState?.served;
    if (served && served.head === null && reply.statusCode === 200) {
      served.head = captureHead(reply.getHeaders(), served.body.length, served.coding);
    }
    done();
  });

  return store;
}
