import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { BANKING_SOURCES } from '../banking/sources.js';
import { HOLDINGS_SOURCES } from '../holdings/sources.js';
import { problemResponses } from '../http/problem.js';
import { today } from './calendar.js';
import { freshness } from './freshness.queries.js';
import { FreshnessSchema } from './freshness.schemas.js';

const SOURCES = [...BANKING_SOURCES, ...HOLDINGS_SOURCES].map((s) => s.source);

/** Freshness of every source: registered in both families (`/api/freshness`, `/api/v1/freshness`). */
/** `tag`: the family it is registered in (`banking` under /api/v1, `holdings` under /api). */
export const freshnessRoutes: FastifyPluginAsyncTypebox<{ tag: 'banking' | 'holdings' }> = async (
  app,
  { tag },
) => {
  app.get(
    '/freshness',
    {
      schema: {
        tags: [tag],
        summary:
          'Is the data current and complete? Per source: latest period, load time, next release, completeness',
        description:
          'Completeness (SPEC §8): call reports count institutions reporting at the latest report date against those of the previous one still active; 13F counts managers against the previous quarter’s. docs/time.md.',
        response: { 200: FreshnessSchema, ...problemResponses },
      },
      // The answer depends on the day as well as the data: never served from the response cache.
      config: { cache: false },
    },
    async () => ({ as_of: today(), sources: await freshness(app.db, SOURCES) }),
  );
};
