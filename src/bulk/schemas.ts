import { Type } from 'typebox';

const Column = Type.Object({
  name: Type.String(),
  type: Type.String({
    description: 'INTEGER, BIGINT, DOUBLE, VARCHAR, DATE or BOOLEAN (the Parquet logical types)',
  }),
  unit: Type.Union([Type.String(), Type.Null()], {
    description: 'e.g. `thousands of USD`, `percent`, `USD`, `count`; null when the value is not a quantity',
  }),
});

export const ManifestSchema = Type.Object(
  {
    dataset_version: Type.Integer({
      description: 'The dataset version the export was read at (one snapshot)',
    }),
    created_at: Type.String({ description: 'When the export was written (ISO 8601, UTC)' }),
    files: Type.Array(
      Type.Object({
        name: Type.String({ description: 'The file: GET /bulk/{name}' }),
        table: Type.String({ description: 'The database table(s) it is read from' }),
        format: Type.String({ description: '`parquet`, `csv` or `ndjson`' }),
        rows: Type.Integer(),
        bytes: Type.Integer(),
        sha256: Type.String({ description: 'SHA-256 of the file, hex (also its ETag)' }),
        columns: Type.Array(Column),
        path: Type.String({ description: 'Where the file is inside the export directory' }),
      }),
    ),
  },
  { description: 'The manifest of the published export (`regdata export`, docs/bulk.md)' },
);

export const FileParams = Type.Object({
  name: Type.String({
    pattern: '^[a-z0-9_]+\\.(parquet|csv|ndjson)$',
    description: 'A file the manifest lists, e.g. `financials.parquet`',
    'x-error': 'must be a file name of the manifest, like financials.parquet',
  }),
});
