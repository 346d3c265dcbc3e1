/**
 * SIGTERM drains: the built server, mid-way through sending several large responses to clients
 * that read slowly, gets SIGTERM. It must stop accepting connections, finish every response, and
 * only then exit 0.
 */

import { mkdtempSync, rmSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/connect.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { buildServer, type RunningServer, spawnServer } from './support.js';

const CLIENTS = 8;
const ROWS = 500;
/**
 * ~30 KB names make each 500-row page about 15 MB: more than the server's send buffer (tcp_wmem max
 * 4 MB here) plus what a paused reader's receive buffer takes, so the responses cannot finish early.
 * (4 MB pages once fitted in the buffers and the server exited within the 1 s grace: a flaky run.)
 */
const NAME_BYTES = 30_000;

async function bigFailuresDatabase(url: string): Promise<void> {
  const writer = openDatabase(url);
  await migrateToLatest(writer);
  const rows = Array.from({ length: ROWS }, (_, i) => ({
    cert: 1000 + i,
    name: `Bank ${i} ${'x'.repeat(NAME_BYTES)}`,
    city: 'Springfield',
    state: 'IL',
    closing_date: '2020-01-01',
    acquiring_institution: null,
    resolution_type: 'PA',
    insurance_fund: 'DIF',
    total_assets: i,
    total_deposits: i,
    estimated_loss: null,
  }));
  for (let i = 0; i < rows.length; i += 50)
    await writer.db
      .insertInto('failures')
      .values(rows.slice(i, i + 50))
      .execute();
  await writer.close();
}

function openResponse(origin: string): Promise<IncomingMessage> {
  return new Promise((done, fail) => {
    const req = request(`${origin}/api/v1/failures?limit=${ROWS}`, { agent: false }, (response) => {
      response.pause(); // a slow reader: the server cannot finish writing yet
      done(response);
    });
    req.on('error', fail);
    req.end();
  });
}

function readAll(response: IncomingMessage): Promise<string> {
  return new Promise((done, fail) => {
    const chunks: Buffer[] = [];
    response.on('data', (chunk: Buffer) => chunks.push(chunk));
    response.on('end', () => done(Buffer.concat(chunks).toString()));
    response.on('error', fail);
    response.resume();
  });
}

describe('SIGTERM on the built server', () => {
  let server: RunningServer;
  let dir: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'regdata-sigterm-'));
    const url = join(dir, 'big.sqlite');
    const [build] = await Promise.all([buildServer(), bigFailuresDatabase(url)]);
    server = await spawnServer(build.cli, { DATABASE_URL: url, CACHE_ENABLED: 'false' });
  }, 600_000);

  afterAll(async () => {
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('finishes every in-flight response before exiting 0, and refuses new connections', async () => {
    const responses = await Promise.all(Array.from({ length: CLIENTS }, () => openResponse(server.origin)));
    expect(responses.map((r) => r.statusCode)).toEqual(Array(CLIENTS).fill(200));
    let exitedAt = 0;
    const exited = server.exited.then((code) => {
      exitedAt = Date.now();
      return code;
    });
    server.child.kill('SIGTERM');
    await new Promise((done) => setTimeout(done, 1000));
    expect(server.child.exitCode).toBeNull(); // still draining: the bodies are not read yet
    await expect(fetch(`${server.origin}/healthz`)).rejects.toThrow();

    const resumedAt = Date.now();
    const bodies = await Promise.all(responses.map(readAll));
    for (const body of bodies) expect((JSON.parse(body) as { data: unknown[] }).data).toHaveLength(ROWS);
    expect(await exited).toBe(0);
    expect(exitedAt).toBeGreaterThanOrEqual(resumedAt);
  }, 120_000);
});
