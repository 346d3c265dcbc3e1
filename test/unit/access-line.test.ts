/**
 * logAccess (access-log.ts) puts the access line together from pino's parts: it must be the very
 * line pino itself writes for the request's child logger, whatever the URL holds.
 */
import type { FastifyBaseLogger } from 'fastify';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { type AccessFields, logAccess } from '../../src/http/access-log.js';
import { LogBatches } from '../../src/http/log-batches.js';

/** A pino logger writing to batches whose sink keeps what it is handed. */
function capturedLogger(level: string) {
  const written: string[] = [];
  const sink = {
    write: (text: string) => written.push(text) > 0,
    flush: (done: () => void) => done(),
    flushSync: () => {},
  };
  const batches = new LogBatches(
    sink as unknown as ConstructorParameters<typeof LogBatches>[0],
    1 << 20,
    60_000,
  );
  const log = pino({ level }, batches);
  const lines = () => {
    batches.flushSync();
    return written.join('').split('\n').filter(Boolean);
  };
  return { log, lines };
}

/** The line with its time taken out (the two lines are written a moment apart). */
const timeless = (line: string) => line.replace(/"time":\d+,/, '');

const URLS = [
  '/api/v1/freshness',
  '/api/v1/banks?q=first&limit=100',
  '/api/v1/banks?q="quoted"\\back',
  '/api/v1/banks?q=caf%C3%A9&name=café ✓',
  '/api/v1/x?tab=\t&nul=\u0000&del=\u007f&line=\u2028',
];

describe('the access line', () => {
  it.each(URLS)('is the line pino writes for %j', (url) => {
    const { log, lines } = capturedLogger('info');
    const fields: AccessFields = {
      reqId: 'b3c1f0a2-5d1e-4c3b-9a7f-0e2d4c6b8a91',
      method: 'GET',
      url,
      statusCode: 200,
      responseTime: 0.030016999997314997,
    };
    logAccess(log as unknown as FastifyBaseLogger, fields);
    const { reqId, ...rest } = fields;
    log.child({ reqId }).info(rest, 'request completed');
    const [ours, pinos] = lines();
    expect(ours).toBeDefined();
    expect(timeless(ours as string)).toBe(timeless(pinos as string));
    expect(JSON.parse(ours as string)).toMatchObject({ level: 30, reqId, url, statusCode: 200 });
  });

  it('is not written below info', () => {
    const { log, lines } = capturedLogger('warn');
    logAccess(log as unknown as FastifyBaseLogger, {
      reqId: 'a',
      method: 'GET',
      url: '/',
      statusCode: 200,
      responseTime: 1,
    });
    expect(lines()).toEqual([]);
  });

  it('goes through pino itself to any other destination', () => {
    const written: string[] = [];
    const log = pino({ level: 'info' }, { write: (text: string) => written.push(text) });
    logAccess(log as unknown as FastifyBaseLogger, {
      reqId: 'r-1',
      method: 'GET',
      url: '/a"b',
      statusCode: 404,
      responseTime: 2.5,
    });
    expect(written).toHaveLength(1);
    expect(JSON.parse(written[0] as string)).toMatchObject({
      reqId: 'r-1',
      url: '/a"b',
      statusCode: 404,
      msg: 'request completed',
    });
  });
});
