/** Schema of the changes feed (SPEC §8). */
import { Type } from 'typebox';

export const ChangesQuery = Type.Object({
  since: Type.Optional(
    Type.Integer({
      minimum: 0,
      maximum: 2_147_483_647,
      'x-error': 'must be a dataset version (a non-negative integer)',
      description:
        'Dataset version the client last synced (the `dataset_version` of /api/meta or an ETag’s version); every load committed after it is listed. Default 0: every load on record',
    }),
  ),
});

export const ChangesSchema = Type.Object({
  latest_version: Type.Integer({ description: 'The dataset version now served' }),
  data: Type.Array(
    Type.Object({
      version: Type.Integer({ description: 'Dataset version the load committed' }),
      source: Type.String({ description: 'The ingest source (`fdic-financials`, `sec-13f`, …)' }),
      loaded_at: Type.String({ description: 'When it committed, ISO 8601 UTC' }),
      demo: Type.Boolean({
        description: 'Extension: true for a part of the built-in synthetic demo dataset',
      }),
      scope: Type.Array(
        Type.Object({
          table: Type.String({ description: 'Served table' }),
          replaces: Type.String({
            description:
              '`all` (every row of the table was replaced) or the column whose values the load replaced (e.g. `report_date`, `quarter`)',
          }),
          values: Type.Union([Type.Array(Type.String()), Type.Null()], {
            description: 'The first 20 values replaced, ascending; null for `all`',
          }),
          more: Type.Integer({ description: 'How many more values the load replaced' }),
        }),
        { description: 'What the load replaced, per table' },
      ),
      inserted: Type.Integer({ description: 'Rows with a key not served before' }),
      updated: Type.Integer({ description: 'Rows whose key was served (values refreshed)' }),
      removed: Type.Integer({ description: 'Served rows of the replaced scope the load no longer has' }),
    }),
    { description: 'Ascending by version; a client applies them in order' },
  ),
});
