import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { notFound, problemResponses } from '../http/problem.js';
import { quarterComplete } from '../time/completeness.js';
import { changesAsOf, filedAfter, latestQuarterAsOf, quarterAsOf, quartersUpTo } from './as-of.queries.js';
import { loadedQuarters, requireManager } from './availability.js';
import { changeRows, managerChanges, positionHistory, summaryOf } from './changes.queries.js';
import {
  ChangesParams,
  ChangesQuery,
  ChangesSchema,
  PositionHistorySchema,
  PositionParams,
} from './changes.schemas.js';
import { padCik } from './identifiers.js';
import { money } from './params.js';

export const changesRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/holdings/:cik/changes',
    {
      schema: {
        tags: ['holdings'],
        summary: 'What a manager bought and sold: every equity position against its previous filed quarter',
        description:
          'Equity positions (SH without put/call, summed per CUSIP) of the quarter compared with the latest earlier quarter the manager filed a 13F-HR for, split-adjusted (docs/holdings-changes.md), sold-out positions included. Derived when the data is loaded. A manager’s first quarter: `previous_quarter` null, every position `new`. Values in thousands of USD.',
        params: ChangesParams,
        querystring: ChangesQuery,
        response: { 200: ChangesSchema, ...problemResponses },
      },
    },
    async (request) => {
      await loadedQuarters(app.db);
      const cik = padCik(request.params.cik);
      await requireManager(app.db, cik);
      const { status, limit, offset, as_of: asOf } = request.query;
      let { quarter } = request.query;
      if (asOf) {
        quarter ??= (await latestQuarterAsOf(app.db, cik, asOf)) ?? undefined;
        if (!quarter) throw notFound(`CIK ${cik} had filed no 13F holdings report by ${asOf}`);
        // A later filing of this quarter or an earlier one changes either side: compare as of the day.
        if (await filedAfter(app.db, cik, await quartersUpTo(app.db, cik, quarter), asOf)) {
          const after = await quarterAsOf(app.db, cik, quarter, asOf);
          if (!after) throw notFound(`CIK ${cik} had filed no 13F holdings report for ${quarter} by ${asOf}`);
          const answer = await changesAsOf(app.db, cik, after, status, { limit, offset }, asOf);
          return {
            cik,
            name: after.name,
            quarter,
            quarter_complete: await quarterComplete(app.db, quarter),
            ...answer,
            limit,
            offset,
          };
        }
      }
      const row = await managerChanges(app.db, cik, quarter);
      if (!row) throw notFound(`CIK ${cik} has no 13F holdings report${quarter ? ` for ${quarter}` : ''}`);
      const summary = summaryOf(row);
      const total = status
        ? summary[status]
        : summary.new + summary.added + summary.reduced + summary.unchanged + summary.sold_out;
      const [name, data] = await Promise.all([
        app.db
          .selectFrom('manager_quarters')
          .select('name')
          .where('cik', '=', cik)
          .where('quarter', '=', row.quarter)
          .executeTakeFirstOrThrow(),
        changeRows(app.db, cik, row.quarter, status, { limit, offset }),
      ]);
      return {
        cik,
        name: name.name,
        quarter: row.quarter,
        quarter_complete: await quarterComplete(app.db, row.quarter),
        previous_quarter: row.previous_quarter,
        summary: { ...summary, value_before: money(row.value_before), value_after: money(row.value_after) },
        data,
        total,
        limit,
        offset,
      };
    },
  );

  app.get(
    '/holdings/:cik/positions/:cusip',
    {
      schema: {
        tags: ['holdings'],
        summary: 'A manager’s history in one security, every quarter it filed since it first held it',
        description:
          'Equity position (SH without put/call) per quarter, ascending: `new` when opened (or re-opened), `added`/`reduced`/`unchanged` on split-adjusted shares, and shares 0 with `sold_out` in a quarter filed without it. 404 when the manager never held the security.',
        params: PositionParams,
        response: { 200: PositionHistorySchema, ...problemResponses },
      },
    },
    async (request) => {
      await loadedQuarters(app.db);
      const cik = padCik(request.params.cik);
      await requireManager(app.db, cik);
      const { cusip } = request.params;
      const history = await positionHistory(app.db, cik, cusip, app.config.readIndexMaxBytes);
      if (!history) throw notFound(`CIK ${cik} never held an equity position in CUSIP ${cusip}`);
      return history;
    },
  );
};
