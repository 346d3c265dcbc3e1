// The floor of a heavy endpoint (issue 19): what building and serialising the very same body costs
// when every value it holds is already in memory. A bare Fastify server, like the ceiling
// (ceiling.mjs), whose GET /floor/:name parses file <argv[2]>/<name> once (an answer the endpoint
// gave, saved by bench/http.ts) and then, per request, builds that body again as fresh objects and
// arrays from the parsed values (as a handler builds its records from rows it has read) and
// serialises it with JSON.stringify, sent with the headers the endpoint sent (<name>.headers.json).
// No database, no validation, no cache: the difference between an endpoint's server time and this
// is what reading the data and our own machinery cost.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Fastify from 'fastify';

const dir = process.argv[2] ?? '.';
const app = Fastify({ logger: false });
const parsed = new Map();

/** A fresh copy of a parsed JSON value: new objects and arrays, the same keys and values. */
function build(value) {
  if (Array.isArray(value)) {
    const out = new Array(value.length);
    for (let i = 0; i < value.length; i++) out[i] = build(value[i]);
    return out;
  }
  if (value !== null && typeof value === 'object') {
    const out = {};
    for (const key in value) out[key] = build(value[key]);
    return out;
  }
  return value;
}

app.get('/floor/:name', (request, reply) => {
  const { name } = request.params;
  if (!/^[\w.-]+$/.test(name)) return reply.code(400).send();
  let saved = parsed.get(name);
  if (saved === undefined) {
    saved = { source: JSON.parse(readFileSync(join(dir, name), 'utf8')), headers: savedHeaders(name) };
    parsed.set(name, saved);
  }
  reply.headers(saved.headers).send(JSON.stringify(build(saved.source)));
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
