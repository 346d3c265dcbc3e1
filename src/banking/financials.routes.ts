import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Kysely } from 'kysely';
import type { Database } from '../db/tables.js';
import { type Page, pageWithTotal } from '../http/paging.js';
import type { ParamError } from '../http/problem.js';
import { dataUnavailable, notFound, problemResponses } from '../http/problem.js';
import { jsonListBytes } from '../http/serializer.js';
import { financialField } from './fields/catalogue.js';
import {
  type FieldFilter,
  isFilterParam,
  parseFieldFilters,
  parseFieldList,
  unknownField,
} from './fields/filters.js';
import {
  countAtDate,
  findInstitution,
  hasFinancials,
  historySummary,
  listAtDate,
  listHistory,
  type RecordShape,
  resolveReportDate,
} from './financials.queries.js';
import { FILTERS_DESCRIPTION, FinancialsEnvelope, FinancialsQuery } from './financials.schemas.js';
import { reportDateSnapshot } from './financials-snapshot.js';

const NOT_LOADED =
  'No quarterly financials are loaded; run `regdata ingest fdic-financials` (or `regdata demo`)';

interface HistoryRequest {
  cert: number;
  state?: string;
  date?: string;
  fieldFilters: readonly FieldFilter[];
}

interface ListRequest {
  state?: string;
  date?: string;
  fieldFilters: readonly FieldFilter[];
}

/** `fields`, `sortBy` and the `{field}__op` filters: every bad one named in the 400 (SPEC §5). */
function checkFieldParams(values: Record<string, unknown>): ParamError[] {
  const errors = parseFieldFilters(values).errors;
  if (typeof values.fields === 'string') errors.push(...parseFieldList(values.fields, 'fields').errors);
  const sortBy = values.sortBy;
  if (typeof sortBy === 'string' && !financialField(sortBy.toLowerCase())) {
    errors.push({ param: 'sortBy', message: unknownField(sortBy) });
  }
  return errors;
}

/** `cert` given: that institution's history, newest first, bounded by `date`, filtered by `state`. */
async function institutionHistory(
  db: Kysely<Database>,
  request: HistoryRequest,
  page: Page,
  shape: RecordShape,
) {
  const institution = await findInstitution(db, request.cert);
  if (!institution) {
    if (!(await hasFinancials(db))) throw dataUnavailable(NOT_LOADED);
    throw notFound(`No institution with cert ${request.cert}`);
  }
  if (request.state && institution.state !== request.state) {
    return { data: [], date: null, total: 0, ...page };
  }
  const filters = { cert: request.cert, onOrBefore: request.date, fieldFilters: request.fieldFilters };
  const summary = await historySummary(db, filters);
  if (summary.total === 0 && request.fieldFilters.length > 0)
    return { data: [], date: null, total: 0, ...page };
  if (summary.total === 0) {
    if (!(await hasFinancials(db))) throw dataUnavailable(NOT_LOADED);
    const bound = request.date ? ` on or before ${request.date}` : '';
    throw notFound(`No financial reports for cert ${request.cert}${bound}`);
  }
  const data = await listHistory(db, filters, page, shape);
  return { data, date: data[0]?.report_date ?? summary.newest, total: summary.total, ...page };
}

/**
 * `cert` absent: every institution (of `state`) at the resolved report date, from the date's
 * snapshot in memory (financials-snapshot.ts) or, with read indexes off, from its rows.
 */
async function reportDateList(
  db: Kysely<Database>,
  request: ListRequest,
  page: Page,
  shape: RecordShape,
  indexBytes: number,
) {
  const reportDate = await resolveReportDate(db, request.date);
  if (!reportDate) {
    if (!(await hasFinancials(db))) throw dataUnavailable(NOT_LOADED);
    throw notFound(`No report date on or before ${request.date}; the first report date is later`);
  }
  const snapshot = await reportDateSnapshot(db, reportDate, indexBytes);
  if (snapshot) {
    const { data, total } = snapshot.page(request.state, request.fieldFilters, shape, page);
    return { data, date: reportDate, total, ...page };
  }
  const filters = { reportDate, state: request.state, fieldFilters: request.fieldFilters };
  const { data, total } = await pageWithTotal(
    page,
    () => listAtDate(db, filters, page, shape),
    () => countAtDate(db, filters),
  );
  return { data, date: reportDate, total, ...page };
}

export const financialsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/financials',
    {
      schema: {
        tags: ['banking'],
        summary: "Quarterly call-report financials: one report date for all banks, or one bank's history",
        description: `Without \`cert\`: all institutions (or those of \`state\`) at one report date, by \`sortBy\` (default \`total_assets\` descending) then \`cert\`. With \`cert\`: that institution’s quarterly history, newest first. With both \`cert\` and \`state\`, both filters apply. ${FILTERS_DESCRIPTION}`,
        querystring: FinancialsQuery,
        response: { 200: FinancialsEnvelope, ...problemResponses },
      },
      config: { params: { check: checkFieldParams, keyed: isFilterParam } },
    },
    async (request, reply) => {
      const { cert, state, date, limit, offset, fields, sortBy, sortDir } = request.query;
      const page = { limit, offset };
      const fieldFilters = parseFieldFilters(request.query as Record<string, unknown>).filters;
      const shape: RecordShape = {
        ...(fields === undefined ? {} : { fields: parseFieldList(fields, 'fields').fields }),
        sortBy: sortBy.toLowerCase(),
        sortDir,
      };
      const body = await (cert === undefined
        ? reportDateList(app.db, { state, date, fieldFilters }, page, shape, app.config.readIndexMaxBytes)
        : institutionHistory(app.db, { cert, state, date, fieldFilters }, page, shape));
      if (!shape.fields) return body;
      // Records in the order `fields=` names them (the schema serializer would use schema order),
      // sent as bytes, which Fastify passes on unserialised and without a content type.
      reply.type('application/json; charset=utf-8');
      return jsonListBytes(body) as unknown as typeof body; // typed as the schema's body
    },
  );
};
