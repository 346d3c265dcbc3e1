/**
 * Fastify's `serverFactory`: the plain Node HTTP server Fastify would create, with a front door
 * that may answer a request before Fastify sees it (the response cache's, cache-front.ts). The
 * answer is installed once the cache exists and removed when the app starts closing, so a closing
 * app's requests get Fastify's own handling. `app.inject` bypasses the server, hence the front door.
 * Every request passes through boundedTurns (turns.ts), so a busy server keeps accepting connections.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { FastifyServerFactory } from 'fastify';
import type { FrontAnswer } from './cache-front.js';
import { boundedTurns } from './turns.js';

export interface FrontDoor {
  readonly serverFactory: FastifyServerFactory<Server>;
  use(answer: FrontAnswer | null): void;
}

interface ServerOptions {
  keepAliveTimeout?: number;
  requestTimeout?: number;
  connectionTimeout?: number;
  maxRequestsPerSocket?: number;
}

export function createFrontDoor(): FrontDoor {
  let answer: FrontAnswer | null = null;
  const serverFactory: FastifyServerFactory<Server> = (handler, options) => {
    const serve = (request: IncomingMessage, response: ServerResponse) => {
      if (answer === null || !answer(request, response)) handler(request, response);
    };
    const server = createServer(boundedTurns(serve));
    // What Fastify sets on the servers it creates itself (lib/server.js).
    const { keepAliveTimeout, requestTimeout, connectionTimeout, maxRequestsPerSocket } =
      options as ServerOptions;
    if (keepAliveTimeout !== undefined) server.keepAliveTimeout = keepAliveTimeout;
    if (requestTimeout !== undefined) server.requestTimeout = requestTimeout;
    server.setTimeout(connectionTimeout ?? 0);
    if (maxRequestsPerSocket !== undefined && maxRequestsPerSocket > 0) {
      server.maxRequestsPerSocket = maxRequestsPerSocket;
    }
    return server;
  };
  return {
    serverFactory,
    use: (next) => {
      answer = next;
    },
  };
}
