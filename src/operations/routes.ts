/** Liveness and readiness probes, shared by both services; registered at the root (no prefix). */
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { datasetVersion, listSources } from '../db/dataset.js';
import { dataUnavailable } from '../http/problem.js';

const HealthSchema = Type.Object({ status: Type.Literal('ok') });
const ReadySchema = Type.Object({
  status: Type.Literal('ready'),
  dataset_version: Type.Integer(),
  sources: Type.Integer({ description: 'Number of sources with loaded data' }),
});

export async function operationsRoutes(app: FastifyInstance): Promise<void> {
  app.get(
    '/healthz',
    { schema: { tags: ['operations'], summary: 'Process is alive', response: { 200: HealthSchema } } },
    async () => ({ status: 'ok' as const }),
  );
  app.get(
    '/readyz',
    {
      schema: {
        tags: ['operations'],
        summary: 'Database reachable and data loaded (503 otherwise)',
        response: { 200: ReadySchema, 503: Type.Ref('Problem') },
      },
    },
    async () => {
      const sources = await listSources(app.db);
      if (sources.length === 0)
        throw dataUnavailable('No data is loaded yet: run `regdata demo` or `regdata ingest`');
      return {
        status: 'ready' as const,
        dataset_version: await datasetVersion(app.db),
        sources: sources.length,
      };
    },
  );
}
