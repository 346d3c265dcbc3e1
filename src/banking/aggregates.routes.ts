/** GET /api/v1/aggregates: industry and group statistics per report date (SPEC §5). */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Kysely } from 'kysely';
import type { Static } from 'typebox';
import type { Database } from '../db/tables.js';
import { wantsCsv } from '../http/csv.js';
import { dataUnavailable, notFound, type ParamError, problemResponses } from '../http/problem.js';
import { type AggregateRow, aggregateRows, reportDatesBetween } from './aggregates.queries.js';
import {
  type AggregateGroup,
  AggregatesQuery,
  AggregatesResponse,
  DEFAULT_AGGREGATE_METRICS,
} from './aggregates.schemas.js';
import { financialField } from './fields/catalogue.js';
import { parseFieldList } from './fields/filters.js';
import { hasFinancials, resolveReportDate } from './financials.queries.js';

const NOT_LOADED =
  'No quarterly financials are loaded; run `regdata ingest fdic-financials` (or `regdata demo`)';

function checkAggregateParams(values: Record<string, unknown>): ParamError[] {
  const errors: ParamError[] = [];
  if (typeof values.metrics === 'string') errors.push(...parseFieldList(values.metrics, 'metrics').errors);
  if (values.date !== undefined && (values.start !== undefined || values.end !== undefined)) {
    errors.push({ param: 'date', message: 'cannot be combined with start/end' });
  }
  return errors;
}

/**
 * One metric's statistics as SPEC §5 serves them: sums for amounts, quartiles for the rest. An
 * amount's `sum` comes last in JSON, where the schema serialiser put it (required members first), and
 * second in CSV, whose columns follow the members' order and always had it there.
 */
function statistics(amount: boolean, row: AggregateRow | undefined, csv: boolean) {
  const stats = row ?? { count: 0, sum: null, median: null, mean: null, p25: null, p75: null };
  if (amount) {
    return csv
      ? { count: stats.count, sum: stats.sum, median: stats.median, mean: stats.mean }
      : { count: stats.count, median: stats.median, mean: stats.mean, sum: stats.sum };
  }
  return { count: stats.count, median: stats.median, mean: stats.mean, p25: stats.p25, p75: stats.p75 };
}

/** Plain code-point order: the same on every machine and locale. */
const byCodePoint = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

async function windowDates(db: Kysely<Database>, query: Static<typeof AggregatesQuery>): Promise<string[]> {
  if (query.start !== undefined || query.end !== undefined) {
    const dates = await reportDatesBetween(db, query.start, query.end);
    if (dates.length === 0 && (await hasFinancials(db))) {
      throw notFound(`No report date between ${query.start ?? 'the first'} and ${query.end ?? 'the last'}`);
    }
    return dates;
  }
  const date = await resolveReportDate(db, query.date);
  if (date === undefined && query.date !== undefined && (await hasFinancials(db))) {
    throw notFound(`No report date on or before ${query.date}; the first report date is later`);
  }
  return date === undefined ? [] : [date];
}

interface Answer {
  maxBytes: number;
  csv: boolean;
}

async function aggregates(db: Kysely<Database>, query: Static<typeof AggregatesQuery>, answer: Answer) {
  const dates = await windowDates(db, query);
  if (dates.length === 0) throw dataUnavailable(NOT_LOADED);
  const metrics = query.metrics ? parseFieldList(query.metrics, 'metrics').fields : DEFAULT_AGGREGATE_METRICS;
  const groupBy = query.group_by as AggregateGroup;
  // total_assets is always read: its rows list every group (a field added to the catalogue after the
  // last load has none yet, and its statistics are empty).
  const fields = [...new Set([...metrics, 'total_assets'])];
  // Rows grouped by date, then group: map lookups by the rows' own strings, no key built per row
  // (the industry series over every report date is ~500 rows a request).
  const byDate = new Map<string, Map<string, Group>>();
  const groups: Group[] = [];
  for (const row of await aggregateRows(db, dates, groupBy, fields, answer.maxBytes)) {
    let byGroup = byDate.get(row.report_date);
    if (!byGroup) {
      byGroup = new Map();
      byDate.set(row.report_date, byGroup);
    }
    let group = byGroup.get(row.grp);
    if (!group) {
      group = { report_date: row.report_date, grp: row.grp, institutions: row.institutions, rows: new Map() };
      byGroup.set(row.grp, group);
      groups.push(group);
    }
    group.rows.set(row.field, row);
  }
  const amounts = metrics.map((m) => financialField(m)?.unit === 'thousands_usd');
  const data = groups
    .sort((a, b) => byCodePoint(a.report_date, b.report_date) || byCodePoint(a.grp, b.grp))
    .map(({ report_date, grp, institutions, rows }) => {
      const stats: Record<string, ReturnType<typeof statistics>> = {};
      metrics.forEach((m, i) => {
        stats[m] = statistics(amounts[i] as boolean, rows.get(m), answer.csv);
      });
      return { report_date, group: groupBy === 'none' ? null : grp, institutions, metrics: stats };
    });
  return { data };
}

interface Group {
  report_date: string;
  grp: string;
  institutions: number;
  rows: Map<string, AggregateRow>;
}

export const aggregatesRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/aggregates',
    {
      schema: {
        tags: ['banking'],
        summary: 'Industry and group statistics per report date (Quarterly-Banking-Profile style)',
        description:
          'For one report date (`date`, default the latest) or every report date of `start`–`end`: per group, the number of institutions and, per metric, sum/median/mean (amounts) or median/mean/p25/p75 (ratios and counts) over the non-null values. Sorted by report date, then group. See docs/peers.md.',
        querystring: AggregatesQuery,
        response: { 200: AggregatesResponse, ...problemResponses },
      },
      config: { params: { check: checkAggregateParams, ranges: [['start', 'end']] } },
    },
    async (request, reply) => {
      const csv = wantsCsv(request);
      const body = await aggregates(app.db, request.query, { maxBytes: app.config.readIndexMaxBytes, csv });
      // Members in the schema serialiser's order, so JSON.stringify writes the same bytes, ~15 %
      // faster (set once the body exists: problem documents keep their own type).
      if (!csv) reply.type('application/json; charset=utf-8').serializer(JSON.stringify);
      return body;
    },
  );
};
