/**
 * The security search (`/api/securities`) over a read index (db/read-indexes.ts): every security
 * held as equity in a loaded quarter, with its latest such quarter's holders and value, in memory by
 * value. A name search is then a substring test of ~30,000 search keys (~0.3 ms) instead of a LIKE
 * scan of security_latest and a count repeating it (~8 ms at full scale). The rules are the SQL
 * path's (securities.queries.ts): `q` matches the issuer's search key as a literal substring, or the
 * ticker exactly (upper-cased), ticker matches first; then value descending and CUSIP.
 */
import type { Kysely } from 'kysely';
import { readIndex, type Sized } from '../db/read-indexes.js';
import { searchKey } from '../db/search.js';
import type { Database } from '../db/tables.js';
import type { Page } from '../http/paging.js';
import { money } from './params.js';
import type { SecuritySearch } from './securities.queries.js';

interface Listed {
  cusip: string;
  issuer: string;
  title_of_class: string | null;
  ticker: string | null;
  latest_quarter: string;
  holder_count: number;
  total_value: number;
  search_issuer: string;
}

export class SecuritySearchIndex implements Sized {
  /** By total value descending, then CUSIP. */
  constructor(private readonly listed: readonly Listed[]) {}

  get bytes(): number {
    return this.listed.length * 320;
  }

  search({ q, ticker, cusip }: SecuritySearch, page: Page) {
    const key = q === undefined ? undefined : searchKey(q);
    const asTicker = q?.trim().toUpperCase();
    const first: Listed[] = [];
    const rest: Listed[] = [];
    for (const entry of this.listed) {
      if (cusip !== undefined && entry.cusip !== cusip) continue;
      if (ticker !== undefined && entry.ticker !== ticker) continue;
      if (key !== undefined) {
        if (entry.ticker !== null && entry.ticker === asTicker) first.push(entry);
        else if (entry.search_issuer.includes(key)) rest.push(entry);
        continue;
      }
      rest.push(entry);
    }
    const found = first.length > 0 ? [...first, ...rest] : rest;
    const data = found.slice(page.offset, page.offset + page.limit).map((entry) => ({
      cusip: entry.cusip,
      issuer: entry.issuer,
      title_of_class: entry.title_of_class,
      ticker: entry.ticker,
      latest_quarter: entry.latest_quarter,
      holder_count: entry.holder_count,
      total_value: money(entry.total_value),
    }));
    return { data, total: found.length };
  }
}

/** The search index of the dataset version, or null when read indexes are off. */
export function securitySearchIndex(
  db: Kysely<Database>,
  maxBytes: number,
): Promise<SecuritySearchIndex | null> {
  return readIndex(db, 'securities|latest', maxBytes, async () => {
    const rows = await db
      .selectFrom('security_latest as l')
      .innerJoin('securities as s', 's.cusip', 'l.cusip')
      .select(['l.cusip', 's.issuer', 's.title_of_class', 's.ticker', 'l.latest_quarter', 'l.holder_count'])
      .select(['l.total_value', 'l.search_issuer'])
      .orderBy('l.total_value', 'desc')
      .orderBy('l.cusip')
      .execute();
    return new SecuritySearchIndex(
      rows.map((row) => ({
        ...row,
        ticker: row.ticker ?? null,
        holder_count: Number(row.holder_count),
        total_value: Number(row.total_value),
      })),
    );
  });
}
