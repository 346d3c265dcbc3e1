// The ceiling of the HTTP benchmark: a bare Fastify server on the same machine answering
// GET /bytes/:n with a constant n-byte body (content-type JSON), nothing else. Prints its port.
import Fastify from 'fastify';

const app = Fastify({ logger: false });
const bodies = new Map();

app.get('/bytes/:n', (request, reply) => {
  const n = Number(request.params.n);
  let body = bodies.get(n);
  if (!body) {
    body = Buffer.alloc(n, 'x');
    bodies.set(n, body);
  }
  reply.type('application/json; charset=utf-8').send(body);
});

await app.listen({ port: 0, host: '127.0.0.1' });
console.log(JSON.stringify({ port: app.server.address().port }));
process.on('SIGTERM', () => app.close().then(() => process.exit(0)));
