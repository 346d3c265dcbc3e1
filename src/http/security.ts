/**
 * Security headers for every response. The JSON/CSV answers are data, never documents to render:
 * no sniffing, no framing, no referrer leakage, a locked-down CSP. Two exceptions: `/embed/…` is
 * made to be framed by any site (no X-Frame-Options; its route sets its own CSP) and `/docs` keeps
 * the CSP of the interactive reference.
 */
import type { FastifyInstance } from 'fastify';

const API_CSP = "default-src 'none'; frame-ancestors 'none'";

export function registerSecurityHeaders(app: FastifyInstance): void {
  app.addHook('onSend', async (request, reply, payload) => {
    reply.header('x-content-type-options', 'nosniff');
    reply.header('referrer-policy', 'no-referrer');
    // CORS is open (`*`), so browsers on other origins may also embed the responses.
    reply.header('cross-origin-resource-policy', 'cross-origin');
    const path = request.url;
    if (path.startsWith('/embed/') || path.startsWith('/docs')) return payload;
    reply.header('x-frame-options', 'DENY');
    if (!reply.hasHeader('content-security-policy')) reply.header('content-security-policy', API_CSP);
    return payload;
  });
}
