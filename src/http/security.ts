/**
 * Security headers for every response. The JSON/CSV answers are data, never documents to render:
 * no sniffing, no framing, no referrer leakage, a locked-down CSP. Two exceptions: `/embed/…` is
 * made to be framed by any site (no X-Frame-Options; its route sets its own CSP) and `/docs` keeps
 * the CSP of the interactive reference.
 */
import { STATUS_CODES } from 'node:http';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sendProblem } from './errors.js';
import { invalidParam, ProblemError } from './problem.js';

const API_CSP = "default-src 'none'; frame-ancestors 'none'";

export function registerSecurityHeaders(app: FastifyInstance): void {
  // A callback hook, not an async one: it runs on every response, cached answers included.
  app.addHook('onSend', (request, reply, payload, done) => {
    reply.header('x-content-type-options', 'nosniff');
    reply.header('referrer-policy', 'no-referrer');
    // CORS is open (`*`), so browsers on other origins may also embed the responses.
    reply.header('cross-origin-resource-policy', 'cross-origin');
    const path = request.url;
    if (!path.startsWith('/embed/') && !path.startsWith('/docs')) {
      reply.header('x-frame-options', 'DENY');
      if (!reply.hasHeader('content-security-policy')) reply.header('content-security-policy', API_CSP);
    }
    done(null, payload);
  });
}

/**
 * Errors Fastify raises before routing (a malformed percent-encoding in the path, an over-long path
 * parameter) would otherwise leave as Fastify's own JSON: answer them as problem documents, with
 * the CORS and request-id headers the hooks never got to add.
 */
export function answerFrameworkError(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  reply.header('access-control-allow-origin', '*').header('x-request-id', request.id);
  reply.header('x-content-type-options', 'nosniff');
  const problem =
    error.code === 'FST_ERR_BAD_URL'
      ? invalidParam('path', 'is not a valid URL path (malformed percent-encoding)')
      : new ProblemError(
          error.statusCode ?? 400,
          error.statusCode === 414 ? 'about:blank' : '/problems/invalid-parameter',
          STATUS_CODES[error.statusCode ?? 400] ?? 'Bad request',
          error.message,
        );
  return sendProblem(request, reply, problem);
}
