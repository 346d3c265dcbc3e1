/**
 * Route families are registered with a prefix (src/app.ts): every route of a family lives under it,
 * SERVICES limits a process to its families, and a trailing slash still reaches a prefixed route.
 * Routing does not depend on the database, so SQLite alone is enough here.
 */
import { describe, expect, it } from 'vitest';
import type { Services } from '../../src/config.js';
import { seedFailures } from '../fixtures/failures.js';
import { getJson, useTestApp } from '../helpers/app.js';
import { testBackends } from '../helpers/backends.js';

const sqlite = testBackends().filter((backend) => backend.name === 'sqlite');

/** The family of a public route, by its OpenAPI tag, and where that family is mounted. */
const FAMILY_OF_TAG: Record<string, RegExp> = {
  banking: /^\/api\/v1\//,
  holdings: /^\/api\/(?!v1\/)/,
  widgets: /^\/embed\//,
  // Bulk files (EXPORT_DIR) are published whatever SERVICES says, like the operations routes.
  bulk: /^\/bulk(\/|$)/,
  operations: /^\/(healthz|readyz|metrics)$/,
};

function publicRoutes(catalog: { url: string; hidden: boolean; schema?: unknown }[]) {
  return catalog
    .filter((route) => !route.hidden)
    .map((route) => ({ url: route.url, tags: (route.schema as { tags?: string[] }).tags ?? [] }));
}

describe.each(sqlite)('route families on $name', (backend) => {
  const ctx = useTestApp(backend, seedFailures);

  it('keeps every route of a family under its prefix', () => {
    const routes = publicRoutes(ctx.app.routeCatalog);
    expect(new Set(routes.flatMap((route) => route.tags))).toEqual(new Set(Object.keys(FAMILY_OF_TAG)));
    const misplaced = routes.filter(
      (route) => route.tags.length !== 1 || !FAMILY_OF_TAG[route.tags[0] as string]?.test(route.url),
    );
    expect(misplaced).toEqual([]);
  });

  it.each(['/api/v1/failures/', '/api/stats/', '/healthz/'])(
    'ignores the trailing slash of %s',
    async (url) => {
      const { status } = await getJson(ctx.app, url);
      expect(status).not.toBe(404);
    },
  );
});

describe.each(
  sqlite.flatMap((backend) => [
    { backend, services: 'banking' as Services, gone: ['/api/stats', '/api/meta'], kept: 'banking' },
    { backend, services: 'holdings' as Services, gone: ['/api/v1/meta', '/embed/1'], kept: 'holdings' },
  ]),
)('SERVICES=$services on $backend.name', ({ backend, services, gone, kept }) => {
  const ctx = useTestApp(backend, seedFailures, { services });

  it('registers only its own families, the operations routes and the bulk files', () => {
    const tags = new Set(publicRoutes(ctx.app.routeCatalog).flatMap((route) => route.tags));
    expect(tags).toEqual(new Set([kept, 'operations', 'bulk', ...(kept === 'banking' ? ['widgets'] : [])]));
  });

  it.each(gone)('answers %s of the other service with a 404 problem', async (url) => {
    const { status, headers } = await getJson(ctx.app, url);
    expect(status).toBe(404);
    expect(headers['content-type']).toMatch(/^application\/problem\+json/);
  });
});
