import type { SourceDescription } from '../operations/meta.js';

/** The holdings service's ingest sources, as `regdata ingest <source>` names them. */
export const HOLDINGS_SOURCES: readonly SourceDescription[] = [
  {
    source: 'sec-13f',
    description: 'SEC Form 13F data sets and EDGAR 13F filings',
    ingest: 'regdata ingest sec-13f',
  },
  {
    source: 'sec-registrants',
    description: 'SEC company tickers with exchange (registrants of the identity graph)',
    ingest: 'regdata ingest sec-registrants',
  },
  {
    source: 'sec-advisers',
    description: 'SEC registered investment advisers (Form ADV)',
    ingest: 'regdata ingest sec-advisers',
  },
  {
    source: 'sec-securities',
    description: 'SEC Official List of Section 13(f) Securities and company tickers',
    ingest: 'regdata ingest sec-securities',
  },
  {
    source: 'fred',
    description: 'FRED macro time series (shared with the banking service)',
    ingest: 'regdata ingest fred',
  },
];
