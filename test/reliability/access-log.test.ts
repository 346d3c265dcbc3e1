/**
 * The access log of the built server, read from the file its output goes to: exactly one line per
 * request, carrying the request id, whether Fastify answered (a miss) or the cache's front door (a
 * hit) — and the log is written asynchronously, so the lines of the requests answered just before
 * SIGTERM must still be in the file once the process has exited.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServer, demoCopy, type RunningServer, spawnServer } from './support.js';

/** Requests sent in the last moment before SIGTERM. */
const LAST_BURST = 400;

interface AccessLine {
  level: number;
  problem: string;
  detail: string;
  reqId: string;
  method: string;
  url: string;
  statusCode: number;
  responseTime: number;
  msg: string;
}

async function get(origin: string, path: string, id: string): Promise<number> {
  const response = await fetch(origin + path, { headers: { 'x-request-id': id } });
  await response.arrayBuffer();
  expect(response.headers.get('x-request-id')).toBe(id);
  return response.status;
}

describe('the access log', () => {
  let server: RunningServer;
  const cleanups: (() => void)[] = [];

  beforeAll(async () => {
    const [build, demo] = await Promise.all([buildServer(), demoCopy()]);
    cleanups.push(demo.cleanup);
    // LOG_LEVEL is the default (info), as spawnServer sets it.
    server = await spawnServer(build.cli, { DATABASE_URL: demo.url });
  }, 600_000);

  afterAll(async () => {
    await server?.stop();
    for (const cleanup of cleanups) cleanup();
  });

  it('has exactly one line per request, misses and hits, and loses none at SIGTERM', async () => {
    const sent = new Map<string, { path: string; status: number }>();
    const send = async (path: string, id: string) =>
      sent.set(id, { path, status: await get(server.origin, path, id) });

    // A miss answered by Fastify, then hits of the same URL: the first fills the cache and the
    // headers, so the second onwards are answered by the front door (test/http/cache-front.test.ts).
    await send('/api/v1/failures?limit=5', 'miss-0001');
    await send('/api/v1/failures?limit=5', 'hit-0002');
    await send('/api/v1/failures?limit=5', 'hit-0003');
    await send('/api/v1/nope', 'not-found-0004');
    await send('/api/v1/failures?limit=abc', 'invalid-0005');
    // A 503 raised on purpose: the demo holds no FRED vintages.
    await send('/api/v1/macro?series=DGS10&as_of=2010-01-01', 'unavailable-0006');

    // A burst of hits and misses, then SIGTERM as soon as the last answer is in.
    await Promise.all(
      Array.from({ length: LAST_BURST }, (_, i) =>
        send(i % 2 ? '/api/v1/failures?limit=5' : `/api/v1/banks?limit=${(i % 50) + 1}`, `burst-${i}`),
      ),
    );
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);

    const lines = (await server.finalLog)
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as Partial<AccessLine>);
    const access = lines.filter((line) => line.msg === 'request completed');
    expect(lines.filter((line) => line.msg === 'incoming request')).toEqual([]);
    for (const [id, { path, status }] of sent) {
      const mine = access.filter((line) => line.reqId === id);
      expect(mine, `access lines of ${id}`).toHaveLength(1);
      expect(mine[0]).toMatchObject({ method: 'GET', url: path, statusCode: status });
      expect(mine[0]?.responseTime).toBeGreaterThanOrEqual(0);
    }
    expect(sent.get('miss-0001')?.status).toBe(200);
    expect(sent.get('hit-0003')?.status).toBe(200);
    expect(sent.get('not-found-0004')?.status).toBe(404);
    expect(sent.get('invalid-0005')?.status).toBe(400);
    // An expected 5xx is a warning naming the problem, not an error with a stack (an outage is).
    expect(sent.get('unavailable-0006')?.status).toBe(503);
    const unavailable = lines.filter(
      (line) => line.reqId === 'unavailable-0006' && line.msg !== 'request completed',
    );
    expect(unavailable).toEqual([
      expect.objectContaining({
        level: 40,
        problem: '/problems/data-unavailable',
        detail: expect.stringContaining('vintages'),
      }),
    ]);
    expect(lines.filter((line) => (line.level ?? 0) >= 50)).toEqual([]);
    // Only the requests above were sent (spawnServer watches the log, not /healthz).
    expect(access).toHaveLength(sent.size);
  }, 120_000);
});

describe('the log on a terminal (LOG_FORMAT=pretty, what `auto` picks when stdout is a TTY)', () => {
  let server: RunningServer;
  const cleanups: (() => void)[] = [];

  beforeAll(async () => {
    const [build, demo] = await Promise.all([buildServer(), demoCopy()]);
    cleanups.push(demo.cleanup);
    server = await spawnServer(build.cli, { DATABASE_URL: demo.url, LOG_FORMAT: 'pretty' });
  }, 600_000);

  afterAll(async () => {
    await server?.stop();
    for (const cleanup of cleanups) cleanup();
  });

  it('writes one human-readable line per request instead of JSON', async () => {
    expect(await get(server.origin, '/api/v1/failures?limit=2', 'pretty-0001')).toBe(200);
    expect(await get(server.origin, '/api/v1/nope', 'pretty-0002')).toBe(404);
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    // biome-ignore lint/suspicious/noControlCharactersInRegex: strips the terminal colours
    const lines = (await server.finalLog).replace(/\u001b\[[0-9;]*m/g, '').split('\n');
    expect(lines.filter((line) => line.trim().startsWith('{'))).toEqual([]);
    const access = lines.filter((line) => line.includes('request completed'));
    expect(access).toHaveLength(2);
    expect(access[0]).toMatch(/^\[\d\d:\d\d:\d\d\.\d{3}\] INFO.*request completed/);
    expect(lines.join('\n')).toMatch(
      /reqId: "pretty-0001"[\s\S]*url: "\/api\/v1\/failures\?limit=2"[\s\S]*statusCode: 200/,
    );
  }, 120_000);
});
