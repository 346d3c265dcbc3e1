/**
 * Records every route as it is registered: the 405 answers are derived from it, and tests walk it
 * to prove that every public route declares its schemas.
 */
import type { FastifyInstance } from 'fastify';

export interface CatalogEntry {
  readonly methods: string[];
  readonly url: string;
  /** Hidden routes (docs assets, 405 answers, /openapi.json) are not part of the API contract. */
  readonly hidden: boolean;
  readonly schema:
    | { response?: Record<string, unknown>; querystring?: unknown; params?: unknown }
    | undefined;
}

declare module 'fastify' {
  interface FastifyInstance {
    routeCatalog: CatalogEntry[];
  }
}

export function recordRoutes(app: FastifyInstance): void {
  app.decorate('routeCatalog', [] as CatalogEntry[]);
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? [...route.method] : [route.method];
    const schema = route.schema as CatalogEntry['schema'] & { hide?: boolean };
    const hidden = schema?.hide === true || route.url.startsWith('/docs');
    app.routeCatalog.push({ methods, url: route.url, hidden, schema });
  });
}
