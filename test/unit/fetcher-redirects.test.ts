/**
 * The ingest fetcher follows redirects (SEC and FRED answer some downloads with one) even after
 * something in the process used fetch(): on Node 24 that installs Node's bundled undici as the
 * global dispatcher, which rejected our per-request redirect option (every FRED/SEC download failed).
 */
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Fetcher } from '../../src/ingest/core/fetcher.js';

describe('the ingest fetcher', () => {
  let server: Server;
  let base = '';

  beforeAll(async () => {
    server = createServer((request, response) => {
      if (request.url === '/moved') response.writeHead(302, { location: '/file.txt' }).end();
      else if (request.url === '/file.txt') response.end('the recorded file');
      else response.writeHead(404).end();
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  });
  afterAll(() => new Promise<void>((done) => server.close(() => done())));

  it('follows a redirect after fetch() was used in the same process', async () => {
    expect((await fetch(`${base}/file.txt`)).status).toBe(200);
    const fetcher = new Fetcher({ maxRetries: 0, retryBaseMs: 1, requestIntervalMs: 0, timeoutMs: 5000 });
    const body = await fetcher.get(`${base}/moved`);
    expect(body.toString('utf8')).toBe('the recorded file');
  });
});
