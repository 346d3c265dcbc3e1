/** The API over a test database, built like production (read-only handle), for checking loads. */
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../../src/app.js';
import { type Config, configWith } from '../../../src/config.js';
import type { DbHandle } from '../../../src/db/connect.js';
import type { TestDatabase } from '../../helpers/backends.js';

export interface ApiUnderTest {
  readonly app: FastifyInstance;
  // biome-ignore lint/suspicious/noExplicitAny: response bodies are checked field by field in tests
  get(url: string): Promise<{ status: number; body: any }>;
  close(): Promise<void>;
}

export async function openApi(
  database: TestDatabase,
  overrides: Partial<Config> = {},
): Promise<ApiUnderTest> {
  const reader: DbHandle = database.openReader();
  const app = await buildApp(configWith({ logLevel: 'silent', versionPollMs: 50, ...overrides }), {
    handle: reader,
  });
  await app.ready();
  return {
    app,
    async get(url) {
      const response = await app.inject({ method: 'GET', url });
      return { status: response.statusCode, body: response.body ? JSON.parse(response.body) : undefined };
    },
    async close() {
      await app.close();
      await reader.close();
    },
  };
}
