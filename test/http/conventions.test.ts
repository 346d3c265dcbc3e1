/** SPEC §1 rules that hold for every route: methods, CORS, request ids, problem shape, schemas. */
import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { seedFailures } from '../fixtures/failures.js';
import { getJson, useTestApp, withAppOn } from '../helpers/app.js';
import { testBackends } from '../helpers/backends.js';

describe.each(testBackends())('HTTP conventions on $name', (backend) => {
  const ctx = useTestApp(backend, seedFailures);

  it('answers HEAD like GET without a body', async () => {
    const response = await ctx.app.inject({ method: 'HEAD', url: '/api/v1/failures?limit=1' });
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe('');
    expect(response.headers['access-control-allow-origin']).toBe('*');
  });

  it('answers OPTIONS preflight with 204 and CORS headers', async () => {
    const response = await ctx.app.inject({
      method: 'OPTIONS',
      url: '/api/v1/failures',
      headers: { origin: 'https://example.org', 'access-control-request-method': 'GET' },
    });
    expect(response.statusCode).toBe(204);
    expect(response.headers['access-control-allow-origin']).toBe('*');
    expect(String(response.headers['access-control-allow-methods'])).toContain('GET');
  });

  // Every method other than GET, HEAD and OPTIONS, the common ones and those Fastify routes only
  // when told of them.
  it.each(['POST', 'PUT', 'PATCH', 'DELETE', 'TRACE', 'PROPFIND', 'MKCOL', 'QUERY'] as const)(
    'answers %s with 405, Allow and a problem body',
    async (method) => {
      const response = await ctx.app.inject({ method, url: '/api/v1/failures' });
      expect(response.statusCode).toBe(405);
      expect(response.headers.allow).toBe('GET, HEAD, OPTIONS');
      expect(response.headers['access-control-allow-origin']).toBe('*');
      expect(JSON.parse(response.body)).toMatchObject({ type: '/problems/method-not-allowed', status: 405 });
    },
  );

  it('answers unknown routes with a 404 problem carrying CORS', async () => {
    const { status, headers, body } = await getJson(ctx.app, '/api/v1/nope?x=1');
    expect(status).toBe(404);
    expect(headers['access-control-allow-origin']).toBe('*');
    expect(headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(body).toEqual({
      type: '/problems/not-found',
      title: 'Not found',
      status: 404,
      detail: 'No route GET /api/v1/nope',
      instance: '/api/v1/nope?x=1',
    });
  });

  it('says a value over its length limit is too long, naming the limit', async () => {
    const long = await getJson(ctx.app, `/api/v1/financials?fields=${'roa,'.repeat(1300)}roa`);
    expect(long.status).toBe(400);
    expect(long.body.errors).toEqual([{ param: 'fields', message: 'must be at most 5000 characters' }]);
  });

  it('rejects repeated parameters and ignores unknown ones', async () => {
    const repeated = await getJson(ctx.app, '/api/v1/failures?state=OH&state=NY');
    expect(repeated.status).toBe(400);
    expect(repeated.body.errors).toEqual([{ param: 'state', message: 'must be given at most once' }]);
    const unknown = await getJson(ctx.app, '/api/v1/failures?frobnicate=1');
    expect(unknown.status).toBe(200);
  });

  it('treats empty values as absent', async () => {
    const { status, body } = await getJson(ctx.app, '/api/v1/failures?state=%20&year=');
    expect(status).toBe(200);
    expect(body.total).toBeGreaterThan(0);
  });

  it('echoes a sane X-Request-Id and replaces an insane one', async () => {
    const sane = await ctx.app.inject({ url: '/healthz', headers: { 'x-request-id': 'abc-123' } });
    expect(sane.headers['x-request-id']).toBe('abc-123');
    const insane = await ctx.app.inject({ url: '/healthz', headers: { 'x-request-id': '<script>' } });
    expect(insane.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('serves OpenAPI 3.1 and the interactive docs from the package', async () => {
    const { status, body } = await getJson(ctx.app, '/openapi.json');
    expect(status).toBe(200);
    expect(body.openapi).toBe('3.1.0');
    expect(Object.keys(body.paths)).toContain('/api/v1/failures');
    const limit = body.paths['/api/v1/failures'].get.parameters.find(
      (p: { name: string }) => p.name === 'limit',
    );
    expect(limit).toMatchObject({ in: 'query', required: false, schema: { default: 50 } });
    const docs = await ctx.app.inject({ url: '/docs/' });
    expect(docs.statusCode).toBe(200);
    expect(docs.body).not.toMatch(/https?:\/\/(cdn|unpkg|cdnjs)/);
  });

  it('declares a 200 response schema on every API route', () => {
    const visible = ctx.app.routeCatalog.filter((route) => !route.hidden);
    expect(visible.length).toBeGreaterThan(3);
    const missing = visible.filter((route) => !route.schema?.response?.['200']).map((route) => route.url);
    expect(missing).toEqual([]);
  });

  it('answers requests the HTTP parser rejects with a problem document, then closes', async () => {
    await withAppOn(ctx.database, {}, async (app) => {
      await app.listen({ port: 0, host: '127.0.0.1' });
      const { port } = app.server.address() as AddressInfo;
      const raw = (request: string | Buffer) =>
        new Promise<string>((resolve, reject) => {
          const socket = connect(port, '127.0.0.1');
          let answer = '';
          socket.on('data', (chunk) => {
            answer += chunk.toString('latin1');
          });
          socket.on('close', () => resolve(answer));
          socket.on('error', reject);
          socket.write(request);
        });
      const cases = [
        // Over Node's 16 KiB header limit.
        [`GET /api/v1/failures?${'a=1&'.repeat(5000)} HTTP/1.1\r\nHost: x\r\n\r\n`, 431],
        // A raw non-ASCII byte in the request line.
        [
          Buffer.concat([
            Buffer.from('GET /api/v1/banks?state='),
            Buffer.from([0xc3, 0xa9]),
            Buffer.from(' HTTP/1.1\r\nHost: x\r\n\r\n'),
          ]),
          400,
        ],
      ] as const;
      for (const [request, status] of cases) {
        const answer = await raw(request);
        const [head = '', body = ''] = answer.split('\r\n\r\n');
        expect(head.split('\r\n')[0], answer).toBe(
          `HTTP/1.1 ${status} ${status === 431 ? 'Request Header Fields Too Large' : 'Bad Request'}`,
        );
        expect(head).toMatch(/content-type: application\/problem\+json/i);
        expect(head).toMatch(/access-control-allow-origin: \*/i);
        expect(head).toMatch(/x-request-id: [0-9a-f-]{36}/i);
        expect(JSON.parse(body)).toMatchObject({ type: 'about:blank', status, detail: expect.any(String) });
      }
    });
  });
});
