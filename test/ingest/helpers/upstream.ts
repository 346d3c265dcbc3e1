/**
 * A real HTTP server on 127.0.0.1 that answers like the upstreams, from recorded responses in
 * test/fixtures/upstream/. Each route can misbehave on chosen hits (429 with Retry-After, 500, a
 * body cut short of its Content-Length) to exercise the fetcher's retries.
 */
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { REPO_ROOT } from './cli.js';

export const FIXTURES = join(REPO_ROOT, 'test', 'fixtures', 'upstream');

export function fixture(path: string): Buffer {
  return readFileSync(join(FIXTURES, path));
}

export interface Reply {
  readonly status?: number;
  readonly headers?: Record<string, string>;
  readonly body: string | Buffer;
  /** Send only the first half of the body, then drop the connection (Content-Length stays full). */
  readonly truncate?: boolean;
}

/** What a route sees of a request besides its URL. */
export interface RequestInfo {
  readonly method: string;
  readonly headers: Record<string, string | string[] | undefined>;
  /** The request body as text (form posts). */
  readonly body: string;
}

/** Answers one request; `hit` counts requests to the same pathname, from 1. */
export type Route = (url: URL, hit: number, request: RequestInfo) => Reply;

export interface Upstream {
  readonly baseUrl: string;
  /** Every request's path and query, in order. */
  readonly requests: string[];
  close(): Promise<void>;
}

export const json = (value: unknown): Reply => ({
  headers: { 'content-type': 'application/json' },
  body: typeof value === 'string' ? value : JSON.stringify(value),
});

export async function startUpstream(routes: Record<string, Route>): Promise<Upstream> {
  const hits = new Map<string, number>();
  const requests: string[] = [];
  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const info: RequestInfo = {
      method: req.method ?? 'GET',
      headers: req.headers,
      body: Buffer.concat(chunks).toString(),
    };
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    requests.push(`${url.pathname}${url.search}`);
    const hit = (hits.get(url.pathname) ?? 0) + 1;
    hits.set(url.pathname, hit);
    const route = routes[url.pathname];
    const reply: Reply = route ? route(url, hit, info) : { status: 404, body: '{"error":"no such route"}' };
    const body = Buffer.isBuffer(reply.body) ? reply.body : Buffer.from(reply.body);
    res.writeHead(reply.status ?? 200, { 'content-length': String(body.length), ...reply.headers });
    if (reply.truncate) {
      res.write(body.subarray(0, Math.floor(body.length / 2)), () => res.destroy());
      return;
    }
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
