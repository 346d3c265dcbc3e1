/** GET /api/v1/peers/{cert} and /peers/{cert}/history: where a bank stands among its peers (SPEC §5). */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Kysely } from 'kysely';
import type { Static } from 'typebox';
import type { Database } from '../db/tables.js';
import { wantsCsv } from '../http/csv.js';
import { dataUnavailable, notFound, type ParamError, problemResponses } from '../http/problem.js';
import { financialField } from './fields/catalogue.js';
import { parseFieldList, unknownField } from './fields/filters.js';
import { hasFinancials, resolveReportDate } from './financials.queries.js';
import { type GroupKind, peerGroup } from './peers/groups.js';
import { distribution, standing } from './peers/stats.js';
import {
  findSubject,
  type PeerRow,
  peerHistoryIndex,
  peerHistoryRows,
  peerRows,
  subjectHistory,
} from './peers.queries.js';
import {
  DEFAULT_PEER_METRICS,
  MAX_CUSTOM_CERTS,
  PeerHistoryQuery,
  PeerHistoryResponse,
  PeerParams,
  PeersQuery,
  PeersResponse,
} from './peers.schemas.js';

const NOT_LOADED =
  'No quarterly financials are loaded; run `regdata ingest fdic-financials` (or `regdata demo`)';

function parseCerts(raw: string): number[] | null {
  const parts = raw
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '');
  if (parts.length === 0 || parts.length > MAX_CUSTOM_CERTS) return null;
  if (!parts.every((part) => /^\d{1,9}$/.test(part) && Number(part) > 0)) return null;
  return parts.map(Number);
}

/** `group`/`certs` consistency, `metrics` and `metric` names: every bad one in the 400. */
function checkPeerParams(values: Record<string, unknown>): ParamError[] {
  const errors: ParamError[] = [];
  if (typeof values.metrics === 'string') errors.push(...parseFieldList(values.metrics, 'metrics').errors);
  if (typeof values.metric === 'string' && !financialField(values.metric.toLowerCase())) {
    errors.push({ param: 'metric', message: unknownField(values.metric) });
  }
  const custom = values.group === 'custom';
  if (typeof values.certs === 'string' && parseCerts(values.certs) === null) {
    errors.push({
      param: 'certs',
      message: `must be 1 to ${MAX_CUSTOM_CERTS} comma-separated FDIC certificate numbers`,
    });
  } else if (custom && values.certs === undefined) {
    errors.push({ param: 'certs', message: 'is required with group=custom' });
  } else if (!custom && values.certs !== undefined) {
    errors.push({ param: 'certs', message: 'is only allowed with group=custom' });
  }
  return errors;
}

async function subjectOf(db: Kysely<Database>, cert: number) {
  const subject = await findSubject(db, cert);
  if (!subject) {
    if (!(await hasFinancials(db))) throw dataUnavailable(NOT_LOADED);
    throw notFound(`No institution with cert ${cert}`);
  }
  return subject;
}

async function peers(db: Kysely<Database>, cert: number, query: Static<typeof PeersQuery>) {
  const subject = await subjectOf(db, cert);
  const date = await resolveReportDate(db, query.date);
  if (!date)
    throw query.date ? notFound(`No report date on or before ${query.date}`) : dataUnavailable(NOT_LOADED);
  const metrics = query.metrics ? parseFieldList(query.metrics, 'metrics').fields : [...DEFAULT_PEER_METRICS];
  const [own] = await peerRows(
    db,
    { kind: 'custom', label: '', size_band: null, state: null, charter_class: null, certs: [cert] },
    date,
    metrics,
  );
  if (!own) throw notFound(`No financial report for cert ${cert} at ${date}`);
  const certs = query.certs ? parseCerts(query.certs) : null;
  const group = peerGroup(query.group as GroupKind, subject, own.total_assets, certs, date);
  const rows = await peerRows(db, group, date, metrics);
  const standings = Object.fromEntries(
    metrics.map((metric) => {
      const values = rows.map((row) => row[metric]).filter((v): v is number => typeof v === 'number');
      const stats = distribution(values);
      const value = typeof own[metric] === 'number' ? (own[metric] as number) : null;
      const place = value === null ? { rank: null, percentile: null } : standing(values, value);
      return [metric, { value, ...place, ...stats }];
    }),
  );
  const { certs: _members, ...shown } = group;
  return {
    cert,
    name: subject.name,
    report_date: date,
    group: { ...shown, count: rows.length },
    metrics: standings,
  };
}

/**
 * A bank's standing at every report date: from the peer index when the group kind is indexed (the
 * bank's own reports are in it too), as the answer's JSON text unless `records` are asked for (the
 * CSV hook writes those); else from the group's rows.
 */
async function history(
  db: Kysely<Database>,
  cert: number,
  query: Static<typeof PeerHistoryQuery>,
  options: { indexBytes: number; records: boolean },
) {
  const metric = query.metric.toLowerCase();
  const kind = query.group as GroupKind;
  const index = kind === 'custom' ? null : await peerHistoryIndex(db, metric, kind, options.indexBytes);
  if (index) {
    if (!index.knows(cert)) await subjectOf(db, cert); // throws the unknown bank's problem
    const answer = options.records ? index.history(cert) : index.json(cert);
    if (answer === null || answer.length === 0) throw notFound(`No financial reports for cert ${cert}`);
    return answer;
  }
  const subject = await subjectOf(db, cert);
  const own = await subjectHistory(db, cert, metric);
  if (own.length === 0) throw notFound(`No financial reports for cert ${cert}`);
  const certs = query.certs ? parseCerts(query.certs) : null;
  // The group's kind and members are fixed; its size band is re-derived at every date.
  const latest = own.at(-1)!;
  const group = peerGroup(kind, subject, latest.total_assets ?? 0, certs, latest.report_date);
  const metricValue = (row: PeerRow) => (typeof row[metric] === 'number' ? (row[metric] as number) : null);
  const byDate = new Map<string, number[]>();
  for (const row of await peerHistoryRows(db, group, own, metric)) {
    const list = byDate.get(row.report_date) ?? [];
    list.push(row[metric] as number);
    byDate.set(row.report_date, list);
  }
  return own.map((row) => {
    const values = byDate.get(row.report_date) ?? [];
    const stats = distribution(values);
    const value = metricValue(row);
    const place =
      value === null || values.length === 0 ? { rank: null, percentile: null } : standing(values, value);
    return {
      report_date: row.report_date,
      value,
      ...place,
      peer_count: stats.peer_count,
      median: stats.median,
    };
  });
}

export const peersRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/peers/:cert',
    {
      schema: {
        tags: ['banking'],
        summary: 'Where one bank stands among its peers at one report date',
        description:
          'Per metric: the bank’s value, rank and percentile, and the peer distribution (min, p5, p25, median, p75, p95, max, mean, trimmed mean). Peers: the group’s institutions with a record and a non-null value at the date, the bank included. See docs/peers.md for the definitions and a worked example.',
        params: PeerParams,
        querystring: PeersQuery,
        response: { 200: PeersResponse, ...problemResponses },
      },
      config: { params: { check: checkPeerParams } },
    },
    async (request) => peers(app.db, request.params.cert, request.query),
  );
  app.get(
    '/peers/:cert/history',
    {
      schema: {
        tags: ['banking'],
        summary: 'A bank’s standing in one metric at every report date, its group re-derived each time',
        params: PeerParams,
        querystring: PeerHistoryQuery,
        response: { 200: PeerHistoryResponse, ...problemResponses },
      },
      config: { params: { check: checkPeerParams } },
    },
    async (request, reply) => {
      const records = wantsCsv(request);
      const options = { indexBytes: app.config.readIndexMaxBytes, records };
      const answer = await history(app.db, request.params.cert, request.query, options);
      return typeof answer === 'string' ? reply.type('application/json; charset=utf-8').send(answer) : answer;
    },
  );
};
