import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply } from 'fastify';
import { Type } from 'typebox';
import { wantsCsv } from '../http/csv.js';
import { problemResponses } from '../http/problem.js';
import { FINANCIAL_FIELDS } from './fields/catalogue.js';
import { fieldReference } from './fields/reference.js';
import { FieldEntry, toFieldEntry } from './fields/schemas.js';

const ENTRIES = FINANCIAL_FIELDS.map(toFieldEntry);
/** The catalogue is code: its body is serialised once, by the route's own serialiser, then sent as is. */
let entriesBody: ReturnType<FastifyReply['serialize']> | undefined;
const REFERENCE = fieldReference();

export const fieldsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/fields',
    {
      schema: {
        tags: ['banking'],
        summary: 'The call-report field catalogue: every field financials, peers and aggregates serve',
        description:
          'Each field with its FDIC BankFind code, unit, kind, family, title and FDIC’s definition, in catalogue order. Any field can be selected with `fields=`, filtered with `{field}__gte` etc. and sorted by on `/api/v1/financials`, and used as a peers or aggregates metric.',
        response: { 200: Type.Array(FieldEntry), ...problemResponses },
      },
    },
    async (request, reply) => {
      if (wantsCsv(request)) return ENTRIES; // for the CSV hook to write
      entriesBody ??= reply.serialize(ENTRIES);
      reply.type('application/json; charset=utf-8');
      return entriesBody;
    },
  );
  app.get(
    '/fields.md',
    {
      schema: {
        tags: ['banking'],
        produces: ['text/markdown'],
        summary: 'The field reference page (Markdown), generated from the catalogue',
        description:
          'Every field by family: name, FDIC code, unit, kind, FDIC’s definition and how FFIEC rows compute it. Always the catalogue the server runs.',
        response: {
          200: Type.String({ description: 'The field reference, `text/markdown; charset=utf-8`' }),
          ...problemResponses,
        },
      },
    },
    async (_request, reply) => {
      reply.type('text/markdown; charset=utf-8');
      return REFERENCE;
    },
  );
};
