/**
 * Loads while serving: a writer in this process (the server is another process) replaces the
 * failures table and bumps the dataset version again and again while autocannon drives the built
 * server. No request may fail, and once the writes stop the server must serve the last load.
 */
import { describe, expect, it } from 'vitest';
import { testBackends } from '../helpers/backends.js';
import { backendDatabase } from './databases.js';
import { driveUntilStopped, failuresUrl, serverErrors } from './load-driver.js';
import { buildServer, spawnServer } from './support.js';
import { bulkReplace } from './writer.js';

/** A sixth of the sustained-load test's duration (10 s in CI), per backend: dozens of loads under load. */
const SECONDS = Math.max(3, Math.round(Number(process.env.RELIABILITY_LOAD_SECONDS ?? 5) / 6));
const POLL_MS = 100;
const MIN_LOADS = 5;

describe.each(testBackends())('ingest while serving on $name', (backend) => {
  it('answers every request while loads replace the data, then serves the last load', async () => {
    const [build, database] = await Promise.all([buildServer(), backendDatabase(backend)]);
    const server = await spawnServer(build.cli, {
      DATABASE_URL: database.url,
      VERSION_POLL_MS: String(POLL_MS),
    });
    try {
      const load = driveUntilStopped(server.origin, 50, failuresUrl);
      let loads = 0;
      let version = 0;
      const deadline = Date.now() + SECONDS * 1000;
      // At least MIN_LOADS loads, however slow the machine; requests run the whole time.
      while (loads < MIN_LOADS || Date.now() < deadline) {
        version = await bulkReplace(database.writer, `load ${++loads}`);
        await new Promise((done) => setTimeout(done, 50));
      }
      const result = await load.stop();
      expect(result.requests.total).toBeGreaterThan(loads);
      expect(result.errors).toBe(0);
      expect(result.timeouts).toBe(0);
      expect(serverErrors(result)).toBe(0);

      await new Promise((done) => setTimeout(done, POLL_MS * 5));
      const response = await fetch(`${server.origin}/api/v1/failures?limit=1`);
      const body = (await response.json()) as { data: { name: string }[] };
      expect(body.data[0]?.name).toMatch(new RegExp(`\\(load ${loads}\\)$`));
      expect(response.headers.get('etag')).toMatch(new RegExp(`^"${version}-`));
      const meta = (await (await fetch(`${server.origin}/api/v1/meta`)).json()) as {
        dataset_version: number;
      };
      expect(meta.dataset_version).toBe(version);
    } finally {
      await server.stop();
      await database.cleanup();
    }
  }, 900_000);
});
