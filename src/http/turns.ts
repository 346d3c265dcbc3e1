/**
 * Bounds the request work of one event-loop turn, so that a busy server still accepts new
 * connections. Node (libuv 1.46, Node 20) accepts ONE pending connection per turn, while a turn
 * answers every request that has arrived on the connections already open. With 100 connections
 * opened at once against a server busy with 50 others, each turn answered ~50 requests of a few
 * milliseconds and accepted one connection: the last ones accepted waited 4–5 s for their first
 * answer (docs/performance.md, "The slowest request"). Here, once a turn has spent TURN_BUDGET_MS on
 * requests, the requests that arrive next are queued and answered from the check phase
 * (`setImmediate`), at most TURN_BUDGET_MS per turn, in arrival order; the next turn's poll, which
 * accepts the next connection, comes after each slice. Cheap requests (a cached answer, ~20 µs)
 * never reach the budget at the concurrency a single process serves.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

/** Request work per event-loop turn before the rest waits for the next turn. */
export const TURN_BUDGET_MS = 2;

type Listener = (request: IncomingMessage, response: ServerResponse) => void;

export function boundedTurns(serve: Listener, budgetMs = TURN_BUDGET_MS): Listener {
  const queued: [IncomingMessage, ServerResponse][] = [];
  /** When this turn's first request began; -1 until a request arrives in a new turn. */
  let turnStarted = -1;

  const endTurn = () => {
    const started = performance.now();
    let next = queued.shift();
    while (next) {
      serve(next[0], next[1]);
      if (performance.now() - started >= budgetMs) break;
      next = queued.shift();
    }
    turnStarted = -1;
    if (queued.length > 0) setImmediate(endTurn); // after the next turn's poll (and accept)
  };

  return (request, response) => {
    const now = performance.now();
    if (turnStarted < 0) {
      turnStarted = now;
      if (queued.length === 0) setImmediate(endTurn);
    }
    if (queued.length > 0 || now - turnStarted >= budgetMs) queued.push([request, response]);
    else serve(request, response);
  };
}
