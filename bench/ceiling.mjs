// The ceiling of the HTTP benchmark: a bare Fastify server on the same machine answering constant
// answers, nothing else. GET /body/:name answers the bytes of file <argv[2]>/<name> with the headers
// of <name>.headers.json (read once, then kept): bench/http.ts saves there the very bodies and
// headers each endpoint answers, so the load generator — which parses every header and counts every
// body byte, on the same two cores — pays the same for the ceiling as for the endpoint (headers are
// a third of a small answer's bytes: CORS, ETag, cache and security headers, request id). GET
// /bytes/:n answers n bytes of 'x'. Prints its port.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Fastify from 'fastify';

const dir = process.argv[2] ?? '.';
const app = Fastify({ logger: false });
const bodies = new Map();

function constant(key, make) {
  let body = bodies.get(key);
  if (!body) {
    body = make();
    bodies.set(key, body);
  }
  return body;
}

app.get('/body/:name', (request, reply) => {
  const { name } = request.params;
  if (!/^[\w.-]+$/.test(name)) return reply.code(400).send();
  const { body, headers } = constant(name, () => ({
    body: readFileSync(join(dir, name)),
    headers: savedHeaders(name),
  }));
  reply.headers(headers).send(body);
});

app.get('/bytes/:n', (request, reply) => {
  const n = Number(request.params.n);
  reply.type('application/json; charset=utf-8').send(constant(n, () => Buffer.alloc(n, 'x')));
});

/** The saved headers of an answer (a JSON content type when none were saved). */
function savedHeaders(name) {
  try {
    return JSON.parse(readFileSync(join(dir, `${name}.headers.json`), 'utf8'));
  } catch {
    return { 'content-type': 'application/json; charset=utf-8' };
  }
}

await app.listen({ port: 0, host: '127.0.0.1' });
console.log(JSON.stringify({ port: app.server.address().port }));
process.on('SIGTERM', () => app.close().then(() => process.exit(0)));
