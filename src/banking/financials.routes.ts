import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Kysely } from 'kysely';
import type { Database } from '../db/tables.js';
import { type Page, pageWithTotal } from '../http/paging.js';
import { dataUnavailable, notFound, problemResponses } from '../http/problem.js';
import {
  countAtDate,
  findInstitution,
  hasFinancials,
  historySummary,
  listAtDate,
  listHistory,
  resolveReportDate,
} from './financials.queries.js';
import { FinancialsEnvelope, FinancialsQuery } from './financials.schemas.js';

const NOT_LOADED =
  'No quarterly financials are loaded; run `regdata ingest fdic-financials` (or `regdata demo`)';

interface HistoryRequest {
  cert: number;
  state?: string;
  date?: string;
}

/** `cert` given: that institution's history, newest first, bounded by `date`, filtered by `state`. */
async function institutionHistory(db: Kysely<Database>, request: HistoryRequest, page: Page) {
  const institution = await findInstitution(db, request.cert);
  if (!institution) {
    if (!(await hasFinancials(db))) throw dataUnavailable(NOT_LOADED);
    throw notFound(`No institution with cert ${request.cert}`);
  }
  if (request.state && institution.state !== request.state) {
    return { data: [], date: null, total: 0, ...page };
  }
  const filters = { cert: request.cert, onOrBefore: request.date };
  const summary = await historySummary(db, filters);
  if (summary.total === 0) {
    if (!(await hasFinancials(db))) throw dataUnavailable(NOT_LOADED);
    const bound = request.date ? ` on or before ${request.date}` : '';
    throw notFound(`No financial reports for cert ${request.cert}${bound}`);
  }
  const data = await listHistory(db, filters, page);
  return { data, date: data[0]?.report_date ?? summary.newest, total: summary.total, ...page };
}

/** `cert` absent: every institution (of `state`) at the resolved report date. */
async function reportDateList(db: Kysely<Database>, request: { state?: string; date?: string }, page: Page) {
  const reportDate = await resolveReportDate(db, request.date);
  if (!reportDate) {
    if (!(await hasFinancials(db))) throw dataUnavailable(NOT_LOADED);
    throw notFound(`No report date on or before ${request.date}; the first report date is later`);
  }
  const filters = { reportDate, state: request.state };
  const { data, total } = await pageWithTotal(
    page,
    () => listAtDate(db, filters, page),
    () => countAtDate(db, filters),
  );
  return { data, date: reportDate, total, ...page };
}

export const financialsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/api/v1/financials',
    {
      schema: {
        tags: ['banking'],
        summary: "Quarterly call-report financials: one report date for all banks, or one bank's history",
        description:
          'Without `cert`: all institutions (or those of `state`) at one report date, by `total_assets` descending then `cert`. With `cert`: that institution’s quarterly history, newest first. With both `cert` and `state`, both filters apply.',
        querystring: FinancialsQuery,
        response: { 200: FinancialsEnvelope, ...problemResponses },
      },
    },
    async (request) => {
      const { cert, state, date, limit, offset } = request.query;
      const page = { limit, offset };
      return cert === undefined
        ? reportDateList(app.db, { state, date }, page)
        : institutionHistory(app.db, { cert, state, date }, page);
    },
  );
};
