import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { datasetVersion, type LoadScope } from '../db/dataset.js';
import { problemResponses } from '../http/problem.js';
import { ChangesQuery, ChangesSchema } from './changes.schemas.js';

/**
 * The changes feed, registered in both families (`/api/changes`, `/api/v1/changes`); `tag` names
 * the family (`banking` under /api/v1, `holdings` under /api).
 */
export const loadChangesRoutes: FastifyPluginAsyncTypebox<{ tag: 'banking' | 'holdings' }> = async (
  app,
  { tag },
) => {
  app.get(
    '/changes',
    {
      schema: {
        tags: [tag],
        summary:
          'What changed since a dataset version: every load committed after it, with its scope and counts',
        description:
          'For incremental sync: remember `latest_version`, ask again with `since=` it, and refetch what the listed scopes cover. Recorded by every load and demo part from this release on.',
        querystring: ChangesQuery,
        response: { 200: ChangesSchema, ...problemResponses },
      },
    },
    async (request) => {
      const since = request.query.since ?? 0;
      const [latest, rows] = await Promise.all([
        datasetVersion(app.db),
        app.db
          .selectFrom('loads')
          .selectAll()
          .where('version', '>', since)
          .orderBy('version')
          .orderBy('source')
          .execute(),
      ]);
      return {
        latest_version: latest,
        data: rows.map((row) => ({
          version: Number(row.version),
          source: row.source,
          loaded_at: row.loaded_at,
          demo: Number(row.is_demo) === 1,
          scope: JSON.parse(row.scope) as LoadScope[],
          inserted: Number(row.inserted),
          updated: Number(row.updated),
          removed: Number(row.removed),
        })),
      };
    },
  );
};
