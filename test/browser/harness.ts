/**
 * Real-browser harness: finds Debian's Chromium, starts the real app on 127.0.0.1 (port 0) over a
 * SQLite database built by the migrations, serves host pages from a second local server, and reads
 * screenshot pixels back through the browser's own PNG decoder (no image library needed).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { type Browser, chromium, type Page } from 'playwright-core';
import { buildApp } from '../../src/app.js';
import { configWith } from '../../src/config.js';
import { type DbHandle, openDatabase } from '../../src/db/connect.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { decodePixels } from './in-page.js';

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** CHROMIUM_PATH, else `which chromium`; null when neither names an existing file. */
export function chromiumPath(): string | null {
  const fromEnv = process.env.CHROMIUM_PATH;
  if (fromEnv && existsSync(fromEnv)) return fromEnv;
  try {
    const found = execFileSync('which', ['chromium'], { encoding: 'utf8' }).trim();
    return found && existsSync(found) ? found : null;
  } catch {
    return null;
  }
}

export function launchChromium(executablePath: string): Promise<Browser> {
  return chromium.launch({ executablePath, headless: true, args: CHROMIUM_ARGS });
}

export interface RunningApp {
  readonly app: FastifyInstance;
  readonly origin: string;
  close(): Promise<void>;
}

/** The real app, listening on 127.0.0.1 on a free port, over a fresh seeded SQLite file. */
export async function startApp(seed: (writer: DbHandle) => Promise<void>): Promise<RunningApp> {
  const dir = mkdtempSync(join(tmpdir(), 'regdata-browser-'));
  const file = join(dir, 'widgets.sqlite');
  const writer = openDatabase(file);
  await migrateToLatest(writer);
  await seed(writer);
  await writer.close();
  const reader = openDatabase(file, { readonly: true });
  const app = await buildApp(configWith({ logLevel: 'silent' }), { handle: reader });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = app.server.address() as AddressInfo;
  return {
    app,
    origin: `http://127.0.0.1:${port}`,
    async close() {
      await app.close();
      await reader.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface HostServer {
  readonly origin: string;
  /** Serves `html` at `path` (a host page that frames the widgets). */
  page(path: string, html: string): string;
  close(): Promise<void>;
}

/** A second origin on 127.0.0.1 serving host pages, as a third-party site would. */
export async function startHostServer(): Promise<HostServer> {
  const pages = new Map<string, string>();
  const server: Server = createServer((request, response) => {
    const html = pages.get(request.url ?? '');
    response.writeHead(html === undefined ? 404 : 200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(html ?? 'not found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    page(path, html) {
      pages.set(path, html);
      return `${origin}${path}`;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** `#rrggbb` of the screenshot pixel at (x, y), decoded by the browser itself. */
export async function pixelColours(page: Page, png: Buffer, points: [number, number][]): Promise<string[]> {
  const decoder = await page.context().newPage();
  try {
    return await decoder.evaluate(decodePixels, { base64: png.toString('base64'), points });
  } finally {
    await decoder.close();
  }
}
