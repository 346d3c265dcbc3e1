import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Kysely } from 'kysely';
import type { Database } from '../db/tables.js';
import { invalidParam, problemResponses } from '../http/problem.js';
import { financialField } from './fields/catalogue.js';
import { unknownField } from './fields/filters.js';
import { RevisionsEnvelope, RevisionsQuery } from './revisions.schemas.js';

interface RevisionFilters {
  cert?: number | undefined;
  date?: string | undefined;
  field?: string | undefined;
}

function filtered(db: Kysely<Database>, { cert, date, field }: RevisionFilters) {
  let query = db.selectFrom('financial_revisions');
  if (cert !== undefined) query = query.where('cert', '=', cert);
  if (date !== undefined) query = query.where('report_date', '=', date);
  if (field !== undefined) query = query.where('field', '=', field);
  return query;
}

export const revisionsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/financials/revisions',
    {
      schema: {
        tags: ['banking'],
        summary: 'Call-report values a later load changed: old and new value, when, by which load',
        description:
          'Recorded by every fdic-financials and ffiec-call load from this release on: a stored value the load changes or removes (a value first filled in is not a revision). docs/time.md.',
        querystring: RevisionsQuery,
        response: { 200: RevisionsEnvelope, ...problemResponses },
      },
    },
    async (request) => {
      const { cert, date, limit, offset } = request.query;
      const field = request.query.field?.trim().toLowerCase();
      if (field !== undefined && !financialField(field)) throw invalidParam('field', unknownField(field));
      const filters = { cert, date, field };
      const [rows, total] = await Promise.all([
        filtered(app.db, filters)
          .selectAll()
          .orderBy('dataset_version', 'desc')
          .orderBy('report_date', 'desc')
          .orderBy('cert')
          .orderBy('field')
          .limit(limit)
          .offset(offset)
          .execute(),
        filtered(app.db, filters)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow(),
      ]);
      return {
        data: rows.map((row) => ({
          cert: Number(row.cert),
          report_date: row.report_date,
          field: row.field,
          old: Number(row.old),
          new: row.new === null ? null : Number(row.new),
          source: row.source,
          loaded_at: row.loaded_at,
          dataset_version: Number(row.dataset_version),
        })),
        total: Number(total.n),
        limit,
        offset,
      };
    },
  );
};
