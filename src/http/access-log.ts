/**
 * The server's logger and its access log: exactly one line per request, written without blocking
 * the event loop. Fastify's own request logging writes two lines per request ("incoming request",
 * "request completed") through a synchronous `write(2)` each; at tens of thousands of cached
 * answers a second those two system calls cost more than the answer. Here every request is logged
 * once, when its response has finished, by Fastify's log controller (AccessLogController) or by
 * the cache's front door (cache-front.ts), in the same shape:
 *   {"level":30,…,"reqId":"…","method":"GET","url":"/…","statusCode":200,"responseTime":0.05,"msg":"request completed"}
 * Lines are batched (log-batches.ts) and written asynchronously by sonic-boom; `flushLog()` must run
 * before the process exits (server.ts), and an exit hook writes what is left synchronously. The
 * access line itself is put together here (`logAccess`) from pino's own pieces.
 * On a terminal (LOG_FORMAT=auto, the default) the same lines go through pino-pretty instead, one
 * human-readable line each: a person reads them, speed does not matter there.
 */
import { type FastifyBaseLogger, type FastifyReply, type FastifyRequest, LogController } from 'fastify';
import pino from 'pino';
import pretty from 'pino-pretty';
import type { Config } from '../config.js';
import { LogBatches } from './log-batches.js';

/**
 * Bytes buffered before a write: ~140 access lines per `fs.write`. Each call costs the event loop
 * ~10–30 µs whatever its size (a request to the thread pool) plus ~1 µs per KB: at 4 KB that was
 * ~2 µs per line, a tenth of a cached answer; at 32 KB ~0.4 µs.
 */
const MIN_WRITE_BYTES = 32 * 1024;
/** What one write may take when lines piled up while the previous one ran. */
const MAX_WRITE_BYTES = 256 * 1024;
/** A reader that stops reading (a stuck pipe) holds at most this much memory; later lines are dropped. */
const MAX_BUFFERED_BYTES = 16 * 1024 * 1024;
/** A quiet server's last lines are written within this long. */
const PERIODIC_FLUSH_MS = 1000;

let stdout: LogBatches | null = null;

/** Standard output, asynchronous, in batches (log-batches.ts); one per process, shared by every app. */
function destination(): LogBatches {
  if (stdout === null) {
    const batches = new LogBatches(
      pino.destination({ fd: 1, sync: false, maxWrite: MAX_WRITE_BYTES, maxLength: MAX_BUFFERED_BYTES }),
      MIN_WRITE_BYTES,
      PERIODIC_FLUSH_MS,
    );
    // Whatever ends the process, the lines batched so far are written (synchronously, as it must).
    process.once('exit', () => flushLogSync());
    stdout = batches;
  }
  return stdout;
}

/** Writes every buffered line; resolves when written (or after `timeoutMs`, whatever happens). */
export function flushLog(timeoutMs = 2000): Promise<void> {
  const stream = stdout;
  if (stream === null) return Promise.resolve();
  return new Promise((done) => {
    const timer = setTimeout(done, timeoutMs);
    try {
      stream.flush(() => {
        clearTimeout(timer);
        done();
      });
    } catch {
      clearTimeout(timer); // destroyed: nothing can be written
      done();
    }
  });
}

/** Writes every buffered line synchronously: for exits that cannot wait. */
export function flushLogSync(): void {
  try {
    stdout?.flushSync();
  } catch {
    // Not open yet, or destroyed: nothing can be written.
  }
}

/**
 * Fastify's per-request log lines, reduced to the one access line. A 404 and a handled error are
 * answered responses like any other and show in that line's status; 5xx errors are logged by the
 * error handler (errors.ts) with their stack.
 */
class AccessLogController extends LogController {
  override incomingRequest(): void {}

  override routeNotFound(): void {}

  override defaultErrorLog(error: Error, request: FastifyRequest, reply: FastifyReply): void {
    if (reply.statusCode >= 500) super.defaultErrorLog(error, request, reply);
  }

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    const raw = request.raw;
    const line = {
      method: raw.method as string,
      url: raw.url as string,
      statusCode: reply.statusCode,
      responseTime: reply.elapsedTime,
    };
    if (error) reply.log.error({ ...line, err: error }, 'request errored');
    else logAccess(request.server.log, { reqId: request.id, ...line });
  }
}

/** What an access line tells, in its order. */
export interface AccessFields {
  reqId: string;
  method: string;
  url: string;
  statusCode: number;
  responseTime: number;
}

const DONE = 'request completed';
/** A pino logger and the parts of it the access line is put together from. */
type PinoParts = pino.Logger & {
  [pino.symbols.chindingsSym]: string;
  [pino.symbols.lsCacheSym]: Record<number, string>;
  [pino.symbols.streamSym]: unknown;
  [pino.symbols.timeSym]: () => string;
};

/**
 * The access line of one request, at info level, through `log` — the app's root logger, whose
 * bindings (pid, hostname) the line carries; the request id comes in `fields`. Where pino writes
 * JSON to the batches (not the terminal's pretty format) the line is put together here from pino's
 * own parts (its level prefix, time and bindings) and handed to the batches: the same bytes as
 * `log.child({reqId}).info(fields, 'request completed')` (test/unit/access-line.test.ts), without
 * pino's general path (a key-by-key serialisation), which cost ~4 µs a line: a tenth of a small
 * uncached answer, more of a cached one. `reqId` is sane by construction (request-id.ts) and
 * `method` an HTTP token, so only the URL needs escaping.
 */
export function logAccess(log: FastifyBaseLogger, fields: AccessFields): void {
  const pinoLog = log as unknown as PinoParts;
  if (!pinoLog.isLevelEnabled('info')) return;
  const stream = pinoLog[pino.symbols.streamSym];
  if (!(stream instanceof LogBatches)) {
    log.info(fields, DONE);
    return;
  }
  const { reqId, method, url, statusCode, responseTime } = fields;
  const level = pinoLog[pino.symbols.lsCacheSym][pinoLog.levels.values.info as number];
  const head = `${level}${pinoLog[pino.symbols.timeSym]()}${pinoLog[pino.symbols.chindingsSym]}`;
  // biome-ignore format: one line
  stream.write(`${head},"reqId":"${reqId}","method":"${method}","url":${JSON.stringify(url)},"statusCode":${statusCode},"responseTime":${responseTime},"msg":"${DONE}"}\n`);
}

let prettyStdout: pretty.PrettyStream | null = null;

/** Human-readable lines on standard output; one per process. */
function prettyDestination(): pretty.PrettyStream {
  prettyStdout ??= pretty({ colorize: true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' });
  return prettyStdout;
}

export function wantsPrettyLog(config: Pick<Config, 'logFormat'>, isTTY = process.stdout.isTTY): boolean {
  return config.logFormat === 'pretty' || (config.logFormat === 'auto' && isTTY === true);
}

/** Fastify's logging options: the level, the destination, one line per request. */
export function loggingOptions(config: Pick<Config, 'logLevel' | 'logFormat'>) {
  const stream = wantsPrettyLog(config) ? prettyDestination() : destination();
  return {
    logger: { level: config.logLevel, stream },
    logController: new AccessLogController(),
  };
}
