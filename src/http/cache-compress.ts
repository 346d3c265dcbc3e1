/**
 * gzip/brotli for the responses the response cache does not compress itself (the cache compresses
 * its data routes once per body and keeps the variants): /openapi.json, /docs assets, streamed CSV.
 * Registered before the routes: @fastify/compress attaches itself to each route as it is added.
 */

import { constants } from 'node:zlib';
import compress from '@fastify/compress';
import type { FastifyInstance } from 'fastify';
import { COMPRESSION_THRESHOLD } from './cache-store.js';

export async function registerCompression(app: FastifyInstance): Promise<void> {
  await app.register(compress, {
    global: true,
    threshold: COMPRESSION_THRESHOLD,
    encodings: ['br', 'gzip'],
    brotliOptions: { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } },
  });
}
