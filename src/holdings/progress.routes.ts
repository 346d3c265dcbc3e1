import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { problemResponses } from '../http/problem.js';
import { quarterOrLatest } from './availability.js';
import { money, percent } from './params.js';
import { ProgressQuery, ProgressSchema } from './progress.schemas.js';

export const progressRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/filing-progress',
    {
      schema: {
        tags: ['holdings'],
        summary:
          'How complete a quarter’s 13F filing season is: who filed, when, who is late, who has not yet',
        description:
          'Counted on each manager’s first 13F-HR for the quarter (amendments do not move it; 13F-NT notices do not count). Derived when the data is loaded.',
        querystring: ProgressQuery,
        response: { 200: ProgressSchema, ...problemResponses },
      },
    },
    async (request) => {
      const quarter = await quarterOrLatest(app.db, request.query.quarter);
      const [progress, days] = await Promise.all([
        app.db
          .selectFrom('filing_progress')
          .selectAll()
          .where('quarter', '=', quarter)
          .executeTakeFirstOrThrow(),
        app.db
          .selectFrom('filing_days')
          .select(['filed_on', 'managers'])
          .where('quarter', '=', quarter)
          .orderBy('filed_on')
          .execute(),
      ]);
      let cumulative = 0;
      const previousFilers = Number(progress.previous_filers);
      const continuing = Number(progress.continuing);
      return {
        quarter,
        deadline: progress.deadline,
        previous_quarter: progress.previous_quarter,
        previous_filers: previousFilers,
        filed: {
          managers: Number(progress.managers),
          share_of_previous_filers: percent(continuing, previousFilers),
          total_value: money(progress.total_value),
        },
        late: Number(progress.late),
        not_yet: previousFilers - continuing,
        by_day: days.map((day) => {
          cumulative += Number(day.managers);
          return { date: day.filed_on, managers: Number(day.managers), cumulative };
        }),
      };
    },
  );
};
