/**
 * Response caching for the data routes (`/api/…`, `/embed/…`). Data changes only when a load bumps
 * the dataset version, so every successful GET gets a strong ETag and Cache-Control, revalidations
 * answer 304 without touching the database, and serialised bodies (and their gzip/brotli variants)
 * are kept in an in-process LRU bounded in bytes. The cache is emptied the moment the version watch
 * notices a load, and a body computed under an older version is never stored.
 *
 * Lookups happen twice: in onRequest by the raw URL (an alias of a normalised key already seen, so
 * a hot URL skips parameter normalisation and validation), then in preHandler by the normalised
 * key (`?state=tx` and `?state=TX` share one entry).
 */
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { LRUCache } from 'lru-cache';
import type { Config } from '../config.js';
import type { VersionWatch } from '../db/version-watch.js';
import { type Coding, etagFor, ifNoneMatchHits, negotiateCoding, normalisedKey } from './cache-keys.js';

/** Bodies smaller than this are not worth compressing (SPEC §1: "over ~1 KB"). */
export const COMPRESSION_THRESHOLD = 1024;
const ALIAS_BYTES = 8 * 1024 * 1024;

interface Entry {
  readonly body: Buffer;
  readonly type: string;
  readonly disposition: string | undefined;
  readonly coding: Coding;
  readonly etag: string;
}

interface CacheState {
  readonly version: number;
  readonly coding: Coding;
  key?: string;
  /** Answered by the cache (or a 304): onSend leaves the reply alone. */
  done: boolean;
}

declare module 'fastify' {
  interface FastifyRequest {
    cacheState: CacheState | null;
  }
  interface FastifyContextConfig {
    /** `false` keeps a route out of the response cache and ETag handling. */
    cache?: boolean;
  }
}

export interface CacheStats {
  lookup(hit: boolean): void;
}

function isCacheable(request: FastifyRequest): boolean {
  const url = request.routeOptions.url;
  if (url === undefined || request.routeOptions.config.cache === false) return false;
  if (request.method !== 'GET' && request.method !== 'HEAD') return false;
  return url.startsWith('/api/') || url.startsWith('/embed/');
}

function compress(body: Buffer, coding: Coding): Buffer {
  if (coding === 'gzip') return gzipSync(body, { level: 6 });
  return brotliCompressSync(body, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: 5,
      [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
    },
  });
}

function variantOf(identity: Entry, key: string, version: number, coding: Coding): Entry {
  if (coding === 'identity' || identity.body.length < COMPRESSION_THRESHOLD) return identity;
  return { ...identity, body: compress(identity.body, coding), coding, etag: etagFor(key, version, coding) };
}

export function registerResponseCache(
  app: FastifyInstance,
  config: Config,
  watch: VersionWatch,
  stats: CacheStats,
): { bytes(): number } {
  const enabled = config.cacheEnabled && config.cacheMaxBytes > 0;
  const entries = enabled
    ? new LRUCache<string, Entry>({
        maxSize: config.cacheMaxBytes,
        maxEntrySize: Math.max(1, Math.floor(config.cacheMaxBytes / 4)),
        sizeCalculation: (entry, key) => entry.body.length + key.length + 200,
      })
    : null;
  const aliases = new LRUCache<string, string>({
    maxSize: ALIAS_BYTES,
    sizeCalculation: (key, url) => url.length + key.length + 50,
  });
  watch.onChange(() => {
    entries?.clear();
    aliases.clear();
  });

  const lookup = (key: string, state: CacheState): Entry | undefined => {
    if (!entries) return undefined;
    const found = entries.get(`${key}\n${state.coding}`);
    if (found || state.coding === 'identity') return found;
    const identity = entries.get(`${key}\nidentity`);
    if (!identity) return undefined;
    const variant = variantOf(identity, key, state.version, state.coding);
    if (variant !== identity) entries.set(`${key}\n${state.coding}`, variant);
    return variant;
  };

  const revalidationHeaders = (reply: FastifyReply, etag: string) =>
    reply.header('etag', etag).header('cache-control', config.cacheControl).header('vary', 'Accept-Encoding');

  const serve = (request: FastifyRequest, reply: FastifyReply, entry: Entry) => {
    (request.cacheState as CacheState).done = true;
    revalidationHeaders(reply, entry.etag);
    if (ifNoneMatchHits(request.headers['if-none-match'], entry.etag)) return reply.code(304).send();
    reply.header('content-type', entry.type);
    if (entry.coding !== 'identity') reply.header('content-encoding', entry.coding);
    if (entry.disposition) reply.header('content-disposition', entry.disposition);
    return reply.send(entry.body);
  };

  app.decorateRequest('cacheState', null);

  // The fast path; a callback hook, since it runs on every request and most are answered here.
  app.addHook('onRequest', (request, reply, done) => {
    if (!isCacheable(request)) return done();
    const state: CacheState = {
      version: watch.current(),
      coding: request.method === 'GET' ? negotiateCoding(request.headers['accept-encoding']) : 'identity',
      done: false,
    };
    request.cacheState = state;
    if (!entries || request.method !== 'GET') return done();
    const key = aliases.get(request.url);
    const entry = key === undefined ? undefined : lookup(key, state);
    if (!entry) return done();
    stats.lookup(true);
    serve(request, reply, entry); // a reply sent from onRequest ends the chain without done()
  });

  app.addHook('preHandler', async (request, reply) => {
    const state = request.cacheState;
    if (!state || state.done) return;
    const key = normalisedKey(request);
    state.key = key;
    const etag = etagFor(key, state.version, 'identity');
    if (ifNoneMatchHits(request.headers['if-none-match'], etag)) {
      state.done = true;
      revalidationHeaders(reply, etagFor(key, state.version, state.coding));
      return reply.code(304).send();
    }
    if (!entries || request.method !== 'GET') return;
    const entry = lookup(key, state);
    stats.lookup(entry !== undefined);
    if (!entry) return;
    aliases.set(request.url, key);
    return serve(request, reply, entry);
  });

  app.addHook('onSend', async (request, reply, payload) => {
    const state = request.cacheState;
    if (!state || state.done || state.key === undefined || reply.statusCode !== 200) return payload;
    const key = state.key;
    if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) {
      // A stream (large CSV): revalidatable, but neither stored nor compressed here.
      reply.header('cache-control', config.cacheControl);
      return payload;
    }
    const identity: Entry = {
      body: Buffer.isBuffer(payload) ? payload : Buffer.from(payload),
      type: String(reply.getHeader('content-type') ?? 'application/json; charset=utf-8'),
      disposition: reply.getHeader('content-disposition') as string | undefined,
      coding: 'identity',
      etag: etagFor(key, state.version, 'identity'),
    };
    const store = entries !== null && request.method === 'GET' && watch.current() === state.version;
    if (store) {
      entries.set(`${key}\nidentity`, identity);
      aliases.set(request.url, key);
    }
    const chosen = variantOf(identity, key, state.version, state.coding);
    if (store && chosen !== identity) entries.set(`${key}\n${state.coding}`, chosen);
    revalidationHeaders(reply, chosen.etag);
    if (chosen === identity) return payload;
    reply.header('content-encoding', chosen.coding);
    return chosen.body;
  });

  return { bytes: () => entries?.calculatedSize ?? 0 };
}
