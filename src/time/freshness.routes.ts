import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { BANKING_SOURCES } from '../banking/sources.js';
import { HOLDINGS_SOURCES } from '../holdings/sources.js';
import { problemResponses } from '../http/problem.js';
import { today } from './calendar.js';
import { type Freshness, freshness } from './freshness.queries.js';
import { FreshnessSchema } from './freshness.schemas.js';

const SOURCES = [...BANKING_SOURCES, ...HOLDINGS_SOURCES].map((s) => s.source);

/**
 * Freshness of every source, registered in both families (`/api/freshness`, `/api/v1/freshness`);
 * `tag` names the family (`banking` under /api/v1, `holdings` under /api).
 */
export const freshnessRoutes: FastifyPluginAsyncTypebox<{ tag: 'banking' | 'holdings' }> = async (
  app,
  { tag },
) => {
  // The answer is a function of the data and the day only: computed once per dataset version and day.
  let memo: { key: string; answer: Promise<{ as_of: string; sources: Freshness[] }> } | null = null;
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
      // The answer depends on the day as well as the data: cached per version and day.
      config: { cache: 'daily' },
    },
    async () => {
      const day = today();
      const key = `${app.datasetVersion()}|${day}`;
      if (memo?.key !== key) {
        const answer = freshness(app.db, SOURCES).then((sources) => ({ as_of: day, sources }));
        memo = { key, answer };
        // A failed computation is not kept.
        answer.catch(() => {
          if (memo?.answer === answer) memo = null;
        });
      }
      return memo.answer;
    },
  );
};
