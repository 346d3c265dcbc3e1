/**
 * Security headers for every response. The JSON/CSV answers are data, never documents to render:
 * no sniffing, no framing, no referrer leakage, a locked-down CSP. Two exceptions: `/embed/…` is
 * made to be framed by any site (no X-Frame-Options; its route sets its own CSP) and `/docs` keeps
 * the CSP of the interactive reference.
 */
import { maxHeaderSize, STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sendProblem } from './errors.js';
import { invalidParam, ProblemError } from './problem.js';
import { requestId } from './request-id.js';

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

/** Why Node's HTTP parser gave up on a request, by its error code: status and what to do. */
function clientProblem(code: string | undefined): { status: number; detail: string } {
  if (code === 'HPE_HEADER_OVERFLOW')
    return {
      status: 431,
      // Node's limit (16 KiB unless --max-http-header-size says otherwise).
      detail: `The request line and headers exceed ${maxHeaderSize / 1024} KiB: send fewer or shorter parameters`,
    };
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT')
    return { status: 408, detail: 'The request was not received in time' };
  return {
    status: 400,
    detail:
      'The request is not valid HTTP/1.1 (a raw space or non-ASCII byte in the URL must be percent-encoded)',
  };
}

/**
 * Requests Node's HTTP parser rejects (headers over its 16 KiB limit, raw non-ASCII bytes in the
 * request line) never reach Fastify's routing or hooks: answered here on the socket, as a problem
 * document with the headers every other answer carries, then the connection is closed.
 */
export function answerClientError(error: Error & { code?: string }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  if (socket.writable) {
    const { status, detail } = clientProblem(error.code);
    const title = STATUS_CODES[status] ?? 'Bad Request';
    const body = JSON.stringify({ type: 'about:blank', title, status, detail });
    const headers = [
      `HTTP/1.1 ${status} ${title}`,
      'content-type: application/problem+json; charset=utf-8',
      `content-length: ${Buffer.byteLength(body)}`,
      'access-control-allow-origin: *',
      'x-content-type-options: nosniff',
      'cache-control: no-store',
      `x-request-id: ${requestId(undefined)}`,
      'connection: close',
    ];
    socket.write(`${headers.join('\r\n')}\r\n\r\n${body}`);
  }
  socket.destroy(error);
}
