/**
 * `regdata ingest sec-registrants [--from <company_tickers_exchange.json>]`: SEC's list of companies
 * with a listed ticker (CIK, name, ticker, exchange; one entry per ticker), the registrant side of
 * the identity graph (SPEC §7). Without --from, `files/company_tickers_exchange.json` is downloaded.
 * `company_tickers.json` (no exchange) is read too. A load is the complete list: it replaces every
 * served registrant, and the identity graph is rebuilt in the same transaction.
 */
import { IngestError } from '../../core/errors.js';
import type { IngestSource } from '../../core/types.js';
import { rebuildEntityLinksOnSwap } from '../../derived/identity/entity-links.js';
import { type CompanyTicker, parseCompanyTickers } from './company-tickers.js';
import { SecClient } from './sec-http.js';

export const secRegistrantsSource: IngestSource = {
  name: 'sec-registrants',
  group: 'holdings',
  description:
    'SEC company tickers with exchange (CIK, name, ticker, exchange): registrants of the identity graph',
  enabledInGroup: (config) => (config.secUserAgent ? true : 'SEC_USER_AGENT is not set'),
  async run(ctx) {
    const sec = new SecClient(ctx);
    const locations =
      ctx.options.from.length > 0 ? [...ctx.options.from] : [sec.url('files/company_tickers_exchange.json')];
    const stager = await ctx.stage({
      table: 'sec_registrants',
      columns: ['cik', 'ticker', 'name', 'exchange', 'ordinal'],
      key: ['cik', 'ticker'],
      replace: 'all',
    });
    for (const location of locations) {
      let companies: CompanyTicker[];
      try {
        companies = parseCompanyTickers((await sec.read(location)).toString('utf8'), (reason) => {
          ctx.tally.read += 1;
          ctx.tally.reject(reason);
        });
      } catch (error) {
        if (error instanceof SyntaxError || /company tickers:/.test((error as Error).message))
          throw new IngestError(`${location}: not a company tickers JSON file (${(error as Error).message})`);
        throw error;
      }
      ctx.tally.read += companies.length;
      const ordinals = new Map<number, number>();
      for (const company of companies) {
        const ordinal = ordinals.get(company.cik) ?? 0;
        ordinals.set(company.cik, ordinal + 1);
        await stager.add({
          cik: String(company.cik).padStart(10, '0'),
          ticker: company.ticker,
          name: company.title,
          exchange: company.exchange,
          ordinal,
        });
      }
      ctx.log(`${location}: ${companies.length} tickers of ${ordinals.size} registrants`);
    }
    ctx.setUpstream(locations.join(' '));
    rebuildEntityLinksOnSwap(ctx);
  },
};
