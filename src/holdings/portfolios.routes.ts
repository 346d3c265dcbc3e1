import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { JsonBuffer, sendJson } from '../http/json-buffer.js';
import { notFound, problemResponses } from '../http/problem.js';
import { plainJson } from '../http/serializer.js';
import { linkedFrom } from '../identity/graph.queries.js';
import { filedAfter, latestQuarterAsOf } from './as-of.queries.js';
import { loadedQuarters, quarterOrLatest, requireManager } from './availability.js';
import { padCik } from './identifiers.js';
import { money } from './params.js';
import { portfolioAsOf } from './portfolio-as-of.js';
import { writePackedHoldings } from './portfolio-records.js';
import {
  findSecurityQuarter,
  listHolders,
  listManagers,
  listSecurities,
  managerQuarter,
  portfolioPack,
  timeline,
} from './portfolios.queries.js';
import {
  HoldingsEnvelope,
  HoldingsQuery,
  ManagerParams,
  PortfolioQuery,
  PortfolioSchema,
  TimelineSchema,
} from './portfolios.schemas.js';

export const portfolioRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/holdings',
    {
      schema: {
        tags: ['holdings'],
        summary:
          'Browse a quarter: managers by portfolio value, securities by value, or the holders of one CUSIP',
        description:
          '`mode=managers` (default) lists managers that filed a 13F-HR for the quarter; `mode=stocks` with `cusip` lists the holders of that security (404 when nobody holds it that quarter), without `cusip` lists securities filtered by issuer name. `quarter` defaults to the latest quarter loaded.',
        querystring: HoldingsQuery,
        response: { 200: HoldingsEnvelope, ...problemResponses },
      },
    },
    async (request) => {
      const { mode, q, cusip, limit, offset } = request.query;
      const quarter = await quarterOrLatest(app.db, request.query.quarter);
      const page = { limit, offset };
      if (mode === 'managers')
        return { mode, quarter, ...(await listManagers(app.db, quarter, q, page)), limit, offset };
      if (!cusip)
        return { mode, quarter, ...(await listSecurities(app.db, quarter, q, page)), limit, offset };
      const security = await findSecurityQuarter(app.db, quarter, cusip);
      if (!security) throw notFound(`No manager holds CUSIP ${cusip} in ${quarter}`);
      const holders = await listHolders(app.db, quarter, cusip, page, app.config.readIndexMaxBytes);
      return { mode, quarter, security, ...holders, limit, offset };
    },
  );

  app.get(
    '/holdings/:cik',
    {
      schema: {
        tags: ['holdings'],
        summary: 'One manager’s 13F portfolio for a quarter (amendments applied); values in thousands of USD',
        params: ManagerParams,
        querystring: PortfolioQuery,
        response: { 200: PortfolioSchema, ...problemResponses },
      },
      ...plainJson,
    },
    async (request, reply) => {
      await loadedQuarters(app.db);
      const cik = padCik(request.params.cik);
      await requireManager(app.db, cik);
      const { as_of: asOf } = request.query;
      let { quarter } = request.query;
      const [adviser] = await linkedFrom(app.db, `cik:${cik}`, 'same_firm_as');
      const crd = adviser ? Number(adviser.from_id.slice('crd:'.length)) : null;
      if (asOf) {
        quarter ??= (await latestQuarterAsOf(app.db, cik, asOf)) ?? undefined;
        if (!quarter) throw notFound(`CIK ${cik} had filed no 13F holdings report by ${asOf}`);
        // A filing made after the day changes the answer: resolve the quarter from the earlier ones.
        if (await filedAfter(app.db, cik, [quarter], asOf)) {
          const state = await portfolioAsOf(app.db, cik, quarter, asOf, app.config.readIndexMaxBytes);
          if (!state) throw notFound(`CIK ${cik} had filed no 13F holdings report for ${quarter} by ${asOf}`);
          // biome-ignore format: the answer's head
          const head = { cik, name: state.name, city: state.city, state: state.state, crd, quarter,
            filed_at: state.filedAt, form_type: state.formType,
            total_value: money(state.total), position_count: state.pack.count };
          const json = new JsonBuffer(state.pack.count * 200).openMember(head, 'holdings');
          await writePackedHoldings(app.db, json, state.pack, state.total, true);
          return sendJson(reply, json.text('}'));
        }
      }
      const row = await managerQuarter(app.db, cik, quarter);
      if (!row) throw notFound(`CIK ${cik} has no 13F holdings report${quarter ? ` for ${quarter}` : ''}`);
      const head = {
        cik,
        name: row.name,
        city: row.city,
        state: row.state,
        crd,
        quarter: row.quarter,
        filed_at: row.filed_at,
        form_type: row.form_type,
        total_value: money(row.total_value),
        position_count: Number(row.position_count),
      };
      // The packed positions, written as the schema's serialiser would (portfolio-records.ts).
      const pack = await portfolioPack(app.db, cik, row.quarter);
      const json = new JsonBuffer(pack.count * 200).openMember(head, 'holdings');
      await writePackedHoldings(app.db, json, pack, row.total_value);
      return sendJson(reply, json.text('}'));
    },
  );

  app.get(
    '/holdings/:cik/timeline',
    {
      schema: {
        tags: ['holdings'],
        summary: 'Quarter-by-quarter portfolio history of one manager, ascending',
        params: ManagerParams,
        response: { 200: TimelineSchema, ...problemResponses },
      },
    },
    async (request) => {
      await loadedQuarters(app.db);
      const cik = padCik(request.params.cik);
      await requireManager(app.db, cik);
      return timeline(app.db, cik);
    },
  );
};
