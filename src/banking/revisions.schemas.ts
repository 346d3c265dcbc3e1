/** Schema of the call-report revisions (SPEC §8). */
import { Type } from 'typebox';
import { pageEnvelopeFields } from '../http/paging.js';
import { dateParam, limitParam, offsetParam } from '../http/params.js';

export const RevisionsQuery = Type.Object({
  cert: Type.Optional(
    Type.Integer({
      minimum: 0,
      'x-error': 'must be a non-negative integer (an FDIC certificate number)',
      description: 'FDIC certificate number: that institution’s revisions',
    }),
  ),
  date: Type.Optional(dateParam('Report date, YYYY-MM-DD: revisions of that report date only')),
  field: Type.Optional(
    Type.String({
      maxLength: 64,
      description: 'Catalogue field name (GET /api/v1/fields): revisions of that field only',
    }),
  ),
  limit: limitParam(100, 1000),
  offset: offsetParam,
});

const nullableNumber = (description: string) => Type.Union([Type.Number(), Type.Null()], { description });

export const RevisionsEnvelope = Type.Object({
  data: Type.Array(
    Type.Object({
      cert: Type.Integer({ description: 'FDIC certificate number' }),
      report_date: Type.String({ description: 'Report date, YYYY-MM-DD' }),
      field: Type.String({
        description: 'Catalogue field; its unit is the catalogue’s (GET /api/v1/fields)',
      }),
      old: Type.Number({ description: 'The value served before the load' }),
      new: nullableNumber('The value the load brought; null when it no longer reports one'),
      source: Type.String({ description: 'The load: `fdic-financials` or `ffiec-call`' }),
      loaded_at: Type.String({ description: 'When the revising load committed (ISO 8601)' }),
      dataset_version: Type.Integer({ description: 'The dataset version it committed' }),
    }),
    { description: 'Newest load first, then by report date, cert and field' },
  ),
  ...pageEnvelopeFields,
});
