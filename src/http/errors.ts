/**
 * The one error handler, the 404 handler and the 405 routes. Every error leaves as an RFC 9457
 * problem document; 5xx bodies carry only a generic message and the request id (the real error
 * goes to the log).
 */
import { METHODS, STATUS_CODES } from 'node:http';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isDatabaseUnavailable } from '../db/unavailable.js';
import { methodNotAllowed, notFound, type ParamError, ProblemError } from './problem.js';

const MAX_INSTANCE_LENGTH = 1024;

function problemBody(request: FastifyRequest, problem: ProblemError) {
  return {
    type: problem.type,
    title: problem.title,
    status: problem.status,
    detail: problem.detail,
    instance: request.url.slice(0, MAX_INSTANCE_LENGTH),
    ...(problem.status >= 500 ? { request_id: String(request.id) } : {}),
    ...(problem.errors ? { errors: problem.errors } : {}),
  };
}

export function sendProblem(request: FastifyRequest, reply: FastifyReply, problem: ProblemError) {
  if (problem.status >= 500) reply.header('cache-control', 'no-store');
  return reply
    .code(problem.status)
    .headers(problem.headers)
    .type('application/problem+json; charset=utf-8')
    .serializer(JSON.stringify)
    .send(problemBody(request, problem));
}

function fromValidation(error: FastifyError): ProblemError {
  const errors: ParamError[] = (error.validation ?? []).map((v) => {
    const missing = (v.params as { missingProperty?: string }).missingProperty;
    const param = missing ?? v.instancePath.replace(/^\//, '') ?? 'request';
    return { param: param || 'request', message: missing ? 'is required' : (v.message ?? 'is invalid') };
  });
  const detail = errors.map((e) => `${e.param} ${e.message}`).join('; ');
  return new ProblemError(400, '/problems/invalid-parameter', 'Invalid parameter', detail, errors);
}

/** The database is away (restart, failover, cut connections, timeout): 503, retry shortly. */
function databaseUnavailable(): ProblemError {
  return new ProblemError(
    503,
    '/problems/data-unavailable',
    'Data unavailable',
    'The database is not reachable right now; retry in a few seconds.',
    undefined,
    { 'retry-after': '5' },
  );
}

/**
 * Known client errors raised by Fastify itself keep their status; a database that is away is a 503;
 * anything else is a 500.
 */
function toProblem(error: FastifyError): ProblemError {
  if (error instanceof ProblemError) return error;
  if (error.validation) return fromValidation(error);
  if (isDatabaseUnavailable(error)) return databaseUnavailable();
  const status = error.statusCode ?? 500;
  if (status >= 400 && status < 500) {
    const title = STATUS_CODES[status] ?? 'Bad request';
    const type = status === 400 ? '/problems/invalid-parameter' : 'about:blank';
    return new ProblemError(status, type, title, error.message);
  }
  return new ProblemError(
    500,
    '/problems/internal',
    'Internal error',
    'The server failed to answer this request. Quote the request id when reporting it.',
  );
}

export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const problem = toProblem(error);
    if (problem.status >= 500) {
      // A 5xx raised on purpose (data-unavailable: what this deployment has not loaded) is a state
      // to report, not a failure to debug: a warning naming it, without a stack.
      if (error instanceof ProblemError) {
        request.log.warn(
          { problem: problem.type, detail: problem.detail },
          'request answered with a 5xx problem',
        );
      } else request.log.error({ err: error }, 'request failed');
    }
    return sendProblem(request, reply, problem);
  });
  app.setNotFoundHandler((request, reply) =>
    sendProblem(request, reply, notFound(`No route ${request.method} ${request.url.split('?')[0]}`)),
  );
}

/**
 * Every method Node's parser accepts other than the three served (CONNECT never reaches a route):
 * POST and DELETE as much as TRACE, PROPFIND or QUERY.
 */
const OTHER_METHODS = METHODS.filter((m) => !['GET', 'HEAD', 'OPTIONS', 'CONNECT'].includes(m));

/** Registers a 405 answer for every other method on every GET path in the catalog; call it last. */
export function registerMethodNotAllowed(app: FastifyInstance): void {
  // Fastify routes only the common methods unless told of the others (as methods without a body,
  // so none is read); QUERY too, whose body it would otherwise require a Content-Type for (a 400).
  for (const method of OTHER_METHODS) {
    if (!app.supportedMethods.includes(method) || method === 'QUERY')
      app.addHttpMethod(method, { overrideExisting: true });
  }
  const urls = new Set(app.routeCatalog.filter((r) => r.methods.includes('GET')).map((r) => r.url));
  for (const url of urls) {
    app.route({
      method: OTHER_METHODS,
      url,
      schema: { hide: true },
      handler: async (request) => {
        throw methodNotAllowed(request.method, 'GET, HEAD, OPTIONS');
      },
    });
  }
}
