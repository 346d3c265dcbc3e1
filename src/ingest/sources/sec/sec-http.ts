/**
 * SEC network access under its fair-access rules: every request declares SEC_USER_AGENT (refused
 * without it) and each request starts at least 110 ms after the previous response (so fewer than 10
 * reach SEC per second), on top of the ingest fetcher's own retries and politeness interval. Local
 * files go through `ctx.readInput`.
 */
import { IngestError } from '../../core/errors.js';
import type { IngestContext } from '../../core/types.js';

/** 10 requests per second is SEC's ceiling; keep a margin. */
export const SEC_MIN_INTERVAL_MS = 110;

export function isUrl(location: string): boolean {
  return /^https?:\/\//i.test(location);
}

export class SecClient {
  private lastEnd = 0;

  constructor(private readonly ctx: IngestContext) {}

  private userAgent(url: string): string {
    const agent = this.ctx.config.secUserAgent;
    if (!agent) {
      throw new IngestError(
        `SEC requires a declared User-Agent to download ${url}: set SEC_USER_AGENT to your name or ` +
          'organisation and a contact e-mail (e.g. SEC_USER_AGENT="Jane Doe jane@example.org"), ' +
          'or pass local files with --from',
      );
    }
    return agent;
  }

  /**
   * GETs an SEC URL (with retries through the ingest fetcher); bytes go into the checksum. The gap
   * is counted from the end of the previous response, so even requests that travel at different
   * speeds reach SEC at least SEC_MIN_INTERVAL_MS apart.
   */
  async get(url: string): Promise<Buffer> {
    const agent = this.userAgent(url);
    const wait = this.lastEnd + SEC_MIN_INTERVAL_MS - Date.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    try {
      return await this.ctx.fetcher.get(url, { headers: { 'user-agent': agent } });
    } finally {
      this.lastEnd = Date.now();
    }
  }

  /** Reads a `--from` location: SEC rules for URLs, plain file reads otherwise. */
  async read(location: string): Promise<Buffer> {
    if (!isUrl(location)) return this.ctx.readInput(location);
    const body = await this.get(location);
    return body;
  }

  url(path: string): string {
    return new URL(path, `${this.ctx.config.secBaseUrl.replace(/\/+$/, '')}/`).toString();
  }
}

/** Every href on an HTML page matching `pattern`, resolved against the page URL, without duplicates. */
export function linksOn(html: string, pageUrl: string, pattern: RegExp): string[] {
  const links = new Set<string>();
  for (const match of html.matchAll(/href\s*=\s*["']([^"']+)["']/gi)) {
    const href = match[1]!.replace(/&amp;/g, '&');
    if (pattern.test(href)) links.add(new URL(href, pageUrl).toString());
  }
  return [...links];
}
