/**
 * Reading FDIC BankFind: the API (paged by `offset` until `meta.total`, partitioned by CERT range
 * when a slice holds more than the API's 10,000-row result window) or `--from` inputs.
 */
import { FieldError, IngestError } from '../../core/errors.js';
import type { IngestContext } from '../../core/types.js';
import { bankFindJsonRecords, recordsOfInput } from '../records.js';
import type { UpstreamRecord } from '../values.js';

/** Elasticsearch's default result window: offset + limit must stay within it. */
export const RESULT_WINDOW = 10_000;
const DEFAULT_PAGE_SIZE = 5_000;
const CERT_MAX = 999_999;
/** BankFind caps `limit` at 500 when a request names more than 250 fields. */
const MANY_FIELDS = 250;
const MANY_FIELDS_LIMIT = 500;

export interface BankFindQuery {
  readonly endpoint: 'institutions' | 'financials' | 'failures';
  readonly fields: readonly string[];
  readonly sortBy: string;
  /** Elasticsearch query-string filter, e.g. `REPDTE:20231231`; empty for none. */
  readonly filter?: string;
}

export function bankFindUrl(
  ctx: IngestContext,
  query: BankFindQuery,
  filter: string,
  offset: number,
  limit: number,
) {
  const base = ctx.config.fdicApiUrl.replace(/\/+$/, '');
  const params = new URLSearchParams();
  if (filter) params.set('filters', filter);
  params.set('fields', query.fields.join(','));
  params.set('sort_by', query.sortBy);
  params.set('sort_order', 'ASC');
  params.set('limit', String(limit));
  params.set('offset', String(offset));
  params.set('format', 'json');
  if (ctx.config.fdicApiKey) params.set('api_key', ctx.config.fdicApiKey);
  return `${base}/${query.endpoint}?${params.toString()}`;
}

async function page(ctx: IngestContext, query: BankFindQuery, filter: string, offset: number, limit: number) {
  const url = bankFindUrl(ctx, query, filter, offset, limit);
  const json = await ctx.fetcher.getJson(url);
  const { records, total } = bankFindJsonRecords(json, url.split('?')[0]!);
  if (total === null) throw new IngestError(`${url.split('?')[0]}: response has no meta.total`);
  return { records, total };
}

function withCertRange(filter: string, lo: number, hi: number): string {
  const range = `CERT:[${lo} TO ${hi}]`;
  return filter ? `${filter} AND ${range}` : range;
}

/** Every record matching `query.filter`, page by page (each yielded array is one page). */
export async function* bankFindApiPages(
  ctx: IngestContext,
  query: BankFindQuery,
): AsyncGenerator<UpstreamRecord[]> {
  const cap = query.fields.length > MANY_FIELDS ? MANY_FIELDS_LIMIT : RESULT_WINDOW;
  const pageSize = Math.min(ctx.options.pageSize ?? DEFAULT_PAGE_SIZE, cap);
  yield* slice(ctx, query, query.filter ?? '', null, pageSize);
}

async function* slice(
  ctx: IngestContext,
  query: BankFindQuery,
  filter: string,
  range: readonly [number, number] | null,
  pageSize: number,
): AsyncGenerator<UpstreamRecord[]> {
  const effective = range ? withCertRange(filter, range[0], range[1]) : filter;
  const firstPage = await page(ctx, query, effective, 0, pageSize);
  if (firstPage.total > RESULT_WINDOW) {
    const [lo, hi] = range ?? [0, CERT_MAX];
    if (hi <= lo) throw new IngestError(`${query.endpoint}: more than ${RESULT_WINDOW} rows for CERT ${lo}`);
    const mid = Math.floor((lo + hi) / 2);
    yield* slice(ctx, query, filter, [lo, mid], pageSize);
    yield* slice(ctx, query, filter, [mid + 1, hi], pageSize);
    return;
  }
  let received = firstPage.records.length;
  yield firstPage.records;
  while (received < firstPage.total) {
    const next = await page(ctx, query, effective, received, pageSize);
    if (next.records.length === 0) break;
    received += next.records.length;
    yield next.records;
  }
  if (received < firstPage.total) {
    throw new IngestError(
      `${query.endpoint} ${effective || '(all)'}: got ${received} of meta.total ${firstPage.total} rows`,
    );
  }
}

/** The `--from` inputs, one array of records per input. */
export async function* inputPages(ctx: IngestContext): AsyncGenerator<UpstreamRecord[]> {
  for (const location of ctx.options.from) yield recordsOfInput(await ctx.readInput(location), location);
}

/**
 * Maps and stages every record; a FieldError rejects the row (reason counted), anything else aborts.
 * Returns the number of rows staged.
 */
export async function stageRecords<R>(
  ctx: IngestContext,
  pages: AsyncIterable<UpstreamRecord[]>,
  map: (record: UpstreamRecord) => R,
  add: (row: R) => Promise<boolean>,
): Promise<number> {
  let staged = 0;
  for await (const records of pages) {
    for (const record of records) {
      ctx.tally.read++;
      let row: R;
      try {
        row = map(record);
      } catch (error) {
        if (error instanceof FieldError) {
          ctx.tally.reject(error.message);
          continue;
        }
        throw error;
      }
      if (await add(row)) staged++;
    }
    ctx.progress.update(ctx.tally.read);
  }
  return staged;
}
