/**
 * `GET /bulk/` (the manifest of the export in EXPORT_DIR) and `GET /bulk/{name}` (one of its files,
 * with a strong ETag — the file's SHA-256 —, Last-Modified, conditional requests and byte ranges,
 * streamed from disk by @fastify/send). Only the names the manifest lists are served. Not in the
 * response cache and not compressed (Parquet is compressed already, and ranges are of the bytes on
 * disk).
 */
import send from '@fastify/send';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { ExportFormat } from '../export/types.js';
import { notFound, ProblemError, problemResponses } from '../http/problem.js';
import { publishedExport } from './manifest.js';
import { FileParams, ManifestSchema } from './schemas.js';

const CONTENT_TYPES: Record<ExportFormat, string> = {
  parquet: 'application/vnd.apache.parquet',
  csv: 'text/csv; charset=utf-8',
  ndjson: 'application/x-ndjson',
};

const NO_EXPORT =
  'No export is published: run `regdata export --format parquet --out DIR` and serve with EXPORT_DIR=DIR';

const fileResponse = (description: string) => Type.String({ format: 'binary', description });

export const bulkRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const published = publishedExport(app.config.exportDir);
  const bulkConfig = { cache: false, compress: false } as const;

  app.get(
    '/',
    {
      schema: {
        tags: ['bulk'],
        summary: 'The manifest of the bulk export: files, rows, bytes, SHA-256, typed columns with units',
        description: `Every table as one file (Parquet, CSV or NDJSON, as the export was written). ${NO_EXPORT.replace('No export is published: run', 'Without an export: 404; publish one with')}.`,
        response: { 200: ManifestSchema, ...problemResponses },
      },
      config: bulkConfig,
    },
    async () => {
      const current = published();
      if (!current) throw notFound(NO_EXPORT);
      return current.manifest;
    },
  );

  app.get(
    '/:name',
    {
      schema: {
        tags: ['bulk'],
        summary: 'One file of the bulk export (ETag = its SHA-256, byte ranges)',
        description:
          'Streams the file. `If-None-Match` with its ETag answers 304; `Range: bytes=…` answers 206 with that part (416 when unsatisfiable).',
        produces: [CONTENT_TYPES.parquet, 'text/csv', CONTENT_TYPES.ndjson],
        params: FileParams,
        response: {
          200: fileResponse('The file'),
          206: fileResponse('The requested byte range of the file'),
          304: Type.Null({ description: 'Not modified: the ETag given in If-None-Match is the file’s' }),
          416: Type.Ref('Problem'),
          ...problemResponses,
        },
      },
      config: bulkConfig,
    },
    async (request, reply) => {
      const current = published();
      if (!current) throw notFound(NO_EXPORT);
      const file = current.manifest.files.find((f) => f.name === request.params.name);
      if (!file) throw notFound(`The published export has no file ${request.params.name} (see /bulk/)`);
      const etag = `"${file.sha256}"`;
      reply.header('etag', etag).header('cache-control', 'public, max-age=300');
      const ifNoneMatch = request.headers['if-none-match'];
      if (
        ifNoneMatch?.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag || tag.trim() === '*')
      ) {
        // No payload at all (the schema's `null` is how the contract says "no body"): a serialised
        // `null` would leave Content-Type and a Content-Length of 4 on a 304.
        return reply.code(304).send(undefined as never);
      }
      const result = await send(request.raw, file.path, {
        root: app.config.exportDir as string,
        etag: false,
        dotfiles: 'deny',
        acceptRanges: true,
        lastModified: true,
      });
      if (result.type === 'error') {
        if (result.statusCode === 416) {
          throw new ProblemError(
            416,
            '/problems/range-not-satisfiable',
            'Range not satisfiable',
            `The Range header names no satisfiable byte range of the file (${file.bytes} bytes)`,
            undefined,
            { 'content-range': `bytes */${file.bytes}` },
          );
        }
        throw notFound(
          `${file.name} is listed but not on disk: the export directory changed under the server`,
        );
      }
      return reply
        .code(result.statusCode as 200 | 206)
        .headers(result.headers as Record<string, string>)
        .header('etag', etag)
        .type(CONTENT_TYPES[file.format])
        .header('content-disposition', `attachment; filename="${file.name}"`)
        .send(result.stream);
    },
  );
};
