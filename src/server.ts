/**
 * The one entry point that listens: opens the database read-only, builds the app, listens, and on
 * SIGTERM/SIGINT stops accepting connections, lets in-flight requests finish, then exits.
 */
import { existsSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.js';
import type { Config } from './config.js';
import { isPostgresUrl, openDatabase, sqlitePath } from './db/connect.js';
import { flushLog, flushLogSync } from './http/access-log.js';
import { trackInFlight } from './http/drain.js';

/** How long in-flight responses get to finish after SIGTERM. */
const DRAIN_TIMEOUT_MS = 30_000;
/** How long closing may take after the drain before the process exits anyway. */
const CLOSE_TIMEOUT_MS = 10_000;

export async function startServer(config: Config): Promise<FastifyInstance> {
  const url = config.databaseReadUrl ?? config.databaseUrl;
  if (!isPostgresUrl(url) && !existsSync(sqlitePath(url))) {
    throw new Error(
      `No database at ${sqlitePath(url)}: run \`regdata demo\` (or \`npm start\`) or \`regdata ingest\` first`,
    );
  }
  const handle = openDatabase(url, {
    readonly: true,
    poolSize: config.dbPoolSize,
    statementTimeoutMs: config.dbStatementTimeoutMs,
  });
  const app = await buildApp(config, { handle });
  app.addHook('onClose', async () => handle.close());
  const inFlight = trackInFlight(app);
  await app.listen({ port: config.port, host: config.host });
  void flushLog(); // "Server listening at …" now, not with the next buffer of access lines

  // The log is written asynchronously: every exit writes what is still buffered first.
  const exit = (code: number) => {
    flushLog().then(() => process.exit(code));
  };

  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down: draining in-flight requests');
    // Whatever happens below, the process ends: a response that never finishes (a client that
    // stopped reading) must not keep a stopped server alive.
    setTimeout(() => {
      app.log.error('shutdown did not complete; exiting');
      flushLogSync(); // the event loop may be what is stuck
      process.exit(1);
    }, DRAIN_TIMEOUT_MS + CLOSE_TIMEOUT_MS).unref();
    inFlight
      .drain(DRAIN_TIMEOUT_MS)
      .then(({ unfinished }) => {
        if (unfinished > 0) {
          app.log.warn({ unfinished }, 'drain timed out; closing the remaining connections');
          app.server.closeAllConnections();
        }
        return app.close();
      })
      .then(
        () => exit(0),
        (error: unknown) => {
          app.log.error({ err: error }, 'shutdown failed');
          exit(1);
        },
      );
  };
  // `on`, not `once`: a cluster worker gets Ctrl-C's SIGINT and the primary's SIGTERM; the second
  // signal must not kill it mid-drain.
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
  return app;
}
