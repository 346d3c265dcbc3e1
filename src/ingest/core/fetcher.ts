/**
 * A polite HTTP client for upstream downloads (undici): one request at a time per fetcher with a
 * minimum interval between requests, retries with exponential backoff on 408/429/5xx, network
 * errors, timeouts and truncated bodies (honouring Retry-After), and an error naming the URL (API
 * keys redacted) when it finally gives up. Every body read goes through `onBytes` (the checksum).
 */

import { Agent, interceptors, request } from 'undici';
import { version } from '../../version.js';
import { IngestError } from './errors.js';

export interface FetcherOptions {
  readonly maxRetries: number;
  readonly retryBaseMs: number;
  /** Minimum milliseconds between the starts of two requests. */
  readonly requestIntervalMs: number;
  readonly timeoutMs: number;
  /** Upper bound on a server's Retry-After we are willing to wait. */
  readonly maxRetryAfterMs?: number;
  readonly userAgent?: string;
  readonly onBytes?: (bytes: Buffer) => void;
  readonly onRetry?: (message: string) => void;
}

export interface FetchOptions {
  readonly headers?: Record<string, string>;
  /** A request body (sent with POST). */
  readonly body?: string;
  /** Validates the body; throwing marks it as damaged (e.g. truncated JSON) and retries. */
  readonly validate?: (body: Buffer) => void;
}

const SECRET_PARAMS = /([?&](?:api_key|apikey|key|token)=)[^&#]*/gi;

/** The URL with API keys replaced by `***`, safe for logs and provenance. */
export function redactUrl(url: string): string {
  return url.replace(SECRET_PARAMS, '$1***');
}

export interface FetchResult {
  readonly body: Buffer;
  readonly headers: Record<string, string | string[] | undefined>;
}

class RetryableError extends Error {
  constructor(
    message: string,
    readonly retryAfterMs: number | null = null,
  ) {
    super(message);
  }
}

function retryAfterMs(header: string | string[] | undefined): number | null {
  const value = Array.isArray(header) ? header[0] : header;
  if (!value) return null;
  if (/^\d+(\.\d+)?$/.test(value.trim())) return Number(value) * 1000;
  const when = Date.parse(value);
  return Number.isNaN(when) ? null : Math.max(0, when - Date.now());
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Our own connection pool, following up to 5 redirects. Not the global dispatcher: once anything in
 * the process calls fetch(), that is Node's bundled undici (another major version on Node 24),
 * which rejects the per-request redirect option.
 */
const dispatcher = new Agent().compose(interceptors.redirect({ maxRedirections: 5 }));

export class Fetcher {
  private nextSlot = 0;

  constructor(private readonly options: FetcherOptions) {}

  /** GETs `url` and returns the whole body; throws IngestError after the last retry. */
  async get(url: string, fetchOptions: FetchOptions = {}): Promise<Buffer> {
    return (await this.send('GET', url, fetchOptions)).body;
  }

  /**
   * Sends one request with the retry policy and returns body and headers (e.g. for a form flow
   * that needs Set-Cookie). `fetchOptions.body` makes it a request with a body (POST).
   */
  async send(method: 'GET' | 'POST', url: string, fetchOptions: FetchOptions = {}): Promise<FetchResult> {
    const attempts = this.options.maxRetries + 1;
    let lastProblem = '';
    for (let attempt = 1; attempt <= attempts; attempt++) {
      await this.waitForSlot();
      try {
        const result = await this.attempt(method, url, fetchOptions);
        fetchOptions.validate?.(result.body);
        this.options.onBytes?.(result.body);
        return result;
      } catch (error) {
        if (!(error instanceof RetryableError) && !(error instanceof SyntaxError) && !isNetworkError(error))
          throw error;
        lastProblem = (error as Error).message;
        if (attempt === attempts) break;
        const wait = this.backoff(attempt, error instanceof RetryableError ? error.retryAfterMs : null);
        this.options.onRetry?.(
          `${method} ${redactUrl(url)}: ${lastProblem}; retry ${attempt}/${this.options.maxRetries} in ${wait} ms`,
        );
        await sleep(wait);
      }
    }
    throw new IngestError(`${method} ${redactUrl(url)} failed after ${attempts} attempt(s): ${lastProblem}`);
  }

  async getJson<T = unknown>(url: string, headers?: Record<string, string>): Promise<T> {
    let parsed: unknown;
    await this.get(url, {
      ...(headers ? { headers } : {}),
      validate: (body) => {
        parsed = JSON.parse(body.toString('utf8'));
      },
    });
    return parsed as T;
  }

  private async attempt(
    method: 'GET' | 'POST',
    url: string,
    fetchOptions: FetchOptions,
  ): Promise<FetchResult> {
    let response: Awaited<ReturnType<typeof request>>;
    try {
      response = await request(url, {
        method,
        ...(fetchOptions.body === undefined ? {} : { body: fetchOptions.body }),
        headers: {
          'user-agent': this.options.userAgent ?? `regdata/${version} (public data ingest)`,
          accept: '*/*',
          ...fetchOptions.headers,
        },
        headersTimeout: this.options.timeoutMs,
        bodyTimeout: this.options.timeoutMs,
        dispatcher,
      });
    } catch (error) {
      throw new RetryableError(`request failed: ${describe(error)}`);
    }
    const { statusCode, headers } = response;
    let body: Buffer;
    try {
      body = Buffer.from(await response.body.arrayBuffer());
    } catch (error) {
      throw new RetryableError(`body interrupted: ${describe(error)}`);
    }
    if (statusCode === 429 || statusCode === 408 || statusCode >= 500) {
      throw new RetryableError(`HTTP ${statusCode}`, retryAfterMs(headers['retry-after']));
    }
    if (statusCode >= 400) {
      const snippet = body.toString('utf8', 0, 200).replace(/\s+/g, ' ').trim();
      throw new IngestError(
        `${method} ${redactUrl(url)}: HTTP ${statusCode}${snippet ? `: ${snippet}` : ''}`,
      );
    }
    const declared = Number(headers['content-length']);
    if (Number.isFinite(declared) && headers['content-encoding'] === undefined && body.length < declared) {
      throw new RetryableError(`truncated body: ${body.length} of ${declared} bytes`);
    }
    return { body, headers };
  }

  private async waitForSlot(): Promise<void> {
    const now = Date.now();
    const start = Math.max(now, this.nextSlot);
    this.nextSlot = start + this.options.requestIntervalMs;
    if (start > now) await sleep(start - now);
  }

  private backoff(attempt: number, retryAfter: number | null): number {
    const cap = this.options.maxRetryAfterMs ?? 120_000;
    if (retryAfter !== null) return Math.min(cap, Math.ceil(retryAfter));
    const exponential = this.options.retryBaseMs * 2 ** (attempt - 1);
    return Math.min(cap, Math.round(exponential * (0.75 + Math.random() * 0.5)));
  }
}

function describe(error: unknown): string {
  if (error instanceof Error) {
    const code = (error as { code?: string }).code;
    return code ? `${code} ${error.message}` : error.message;
  }
  return String(error);
}

function isNetworkError(error: unknown): boolean {
  const code = (error as { code?: string } | null)?.code ?? '';
  return code.startsWith('UND_ERR') || ['ECONNRESET', 'ECONNREFUSED', 'ETIMEDOUT', 'EPIPE'].includes(code);
}
