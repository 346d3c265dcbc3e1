/** OpenAPI 3.1 generated from the route schemas (@fastify/swagger) and an interactive reference at /docs. */
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { version } from '../version.js';
import { completeContract, type OpenApiDocument } from './openapi-contract.js';

const DESCRIPTION = `Public US financial-regulatory data as two read-only JSON APIs.

* **Banking** (\`/api/v1/…\`, \`/embed/…\`): FDIC-insured institutions, quarterly call-report financials,
  bank failures, 12 FRED macro series, embeddable metric widgets.
* **Institutional holdings** (\`/api/…\`): SEC-registered investment advisers (Form ADV), 13F portfolios,
  crowded stocks, quarter-over-quarter moves, portfolio overlap and comparison.

Units: banking money fields are thousands of USD; banking ratios are percent (1.05 means 1.05 %);
holdings \`value\` fields are thousands of USD whatever unit the filing used; adviser AUM is USD.

Errors are RFC 9457 problem documents (\`application/problem+json\`). Unknown parameters are ignored,
empty ones are treated as absent, repeated ones are rejected. Out of the box the data is a built-in
**demo dataset** (see \`/api/v1/meta\` and \`/api/meta\`); \`regdata ingest\` loads the real sources.`;

export async function registerOpenApi(app: FastifyInstance): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'regdata',
        version,
        description: DESCRIPTION,
        license: { name: 'MIT', identifier: 'MIT' },
      },
      // Relative: the server that serves this document (clients pass their own base URL).
      servers: [{ url: '/', description: 'The server that serves this document' }],
      // Read-only public data: no authentication on any operation.
      security: [],
      tags: [
        { name: 'banking', description: 'Banking data service (/api/v1)' },
        { name: 'holdings', description: 'Institutional holdings service (/api)' },
        { name: 'widgets', description: 'Embeddable widgets (/embed)' },
        { name: 'bulk', description: 'Bulk export: every table as Parquet, CSV or NDJSON (/bulk)' },
        { name: 'operations', description: 'Health, readiness and metadata' },
      ],
    },
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => String(json.$id ?? `def-${i}`) },
    transformObject: (documentObject) =>
      'openapiObject' in documentObject
        ? completeContract(documentObject.openapiObject as OpenApiDocument)
        : documentObject.swaggerObject,
  });
  await app.register(swaggerUi, { routePrefix: '/docs', staticCSP: false });
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}
