// The ceiling of the HTTP benchmark: a bare Fastify server on the same machine answering constant
// bodies, nothing else. GET /body/:name answers the bytes of file <argv[2]>/<name> (read once, then
// kept): bench/http.ts saves there the very bodies each endpoint answers, so the load generator —
// which decodes every body it receives as UTF-8, ten times slower for non-ASCII text — pays the
// same for the ceiling as for the endpoint. GET /bytes/:n answers n bytes of 'x'. Prints its port.
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
  reply.type('application/json; charset=utf-8').send(constant(name, () => readFileSync(join(dir, name))));
});

app.get('/bytes/:n', (request, reply) => {
  const n = Number(request.params.n);
  reply.type('application/json; charset=utf-8').send(constant(n, () => Buffer.alloc(n, 'x')));
});

await app.listen({ port: 0, host: '127.0.0.1' });
console.log(JSON.stringify({ port: app.server.address().port }));
process.on('SIGTERM', () => app.close().then(() => process.exit(0)));
