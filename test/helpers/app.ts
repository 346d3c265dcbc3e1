import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll } from 'vitest';
import { buildApp } from '../../src/app.js';
import { type Config, configWith } from '../../src/config.js';
import type { DbHandle } from '../../src/db/connect.js';
import type { Backend, TestDatabase } from './backends.js';

export interface TestContext {
  app: FastifyInstance;
  database: TestDatabase;
}

/**
 * Builds a test database on `backend`, seeds it with `seed` through the owner handle, and builds the
 * app on a read-only handle. Use inside a describe block; returns a context filled in beforeAll.
 */
export function useTestApp(
  backend: Backend,
  seed: (writer: DbHandle) => Promise<void>,
  overrides: Partial<Config> = {},
): TestContext {
  const context = {} as TestContext;
  let reader: DbHandle | undefined;
  beforeAll(async () => {
    context.database = await backend.create();
    await seed(context.database.writer);
    reader = context.database.openReader();
    context.app = await buildApp(configWith({ logLevel: 'silent', ...overrides }), { handle: reader });
    await context.app.ready();
  });
  afterAll(async () => {
    await context.app?.close();
    await reader?.close();
    await context.database?.drop();
  });
  return context;
}

/** Runs `use` with a second app on the context's database (other settings), closed afterwards. */
export async function withAppOn<T>(
  database: TestDatabase,
  overrides: Partial<Config>,
  use: (app: FastifyInstance) => Promise<T>,
): Promise<T> {
  const reader = database.openReader();
  const app = await buildApp(configWith({ logLevel: 'silent', ...overrides }), { handle: reader });
  try {
    return await use(app);
  } finally {
    await app.close();
    await reader.close();
  }
}

/** GET through app.inject and parse JSON. */
export async function getJson(app: FastifyInstance, url: string) {
  const response = await app.inject({ method: 'GET', url });
  const body = response.body ? JSON.parse(response.body) : undefined;
  return { status: response.statusCode, headers: response.headers, body };
}
