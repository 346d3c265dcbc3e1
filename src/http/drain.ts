/**
 * Graceful drain. Node's `server.close()` (which `app.close()` calls) destroys every connection it
 * deems idle, and a connection whose response was `end()`-ed but not yet flushed to a slow client
 * counts as idle: the client gets a truncated body. So on shutdown we first stop accepting
 * connections (without touching open ones), then wait until every response has really finished
 * (its 'close' event), then let `app.close()` close what is left.
 */
import { Server } from 'node:net';
import type { FastifyInstance } from 'fastify';

export interface Drain {
  /** Stops accepting connections and resolves when no response is in flight (or at the timeout). */
  drain(timeoutMs: number): Promise<{ unfinished: number }>;
}

export function trackInFlight(app: FastifyInstance): Drain {
  let inFlight = 0;
  let idle: (() => void) | null = null;
  app.server.on('request', (_request, response) => {
    inFlight++;
    response.once('close', () => {
      inFlight--;
      if (inFlight === 0) idle?.();
    });
  });
  return {
    async drain(timeoutMs) {
      // net.Server#close only stops listening; http.Server#close would also cut "idle" sockets.
      Server.prototype.close.call(app.server);
      if (inFlight > 0) {
        await new Promise<void>((done) => {
          const timer = setTimeout(done, timeoutMs);
          timer.unref();
          idle = () => {
            clearTimeout(timer);
            done();
          };
        });
      }
      return { unfinished: inFlight };
    },
  };
}
