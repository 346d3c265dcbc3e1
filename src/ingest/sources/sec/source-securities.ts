/**
 * `regdata ingest sec-securities [--from <13flist.txt> --from <company_tickers.json>]`: the Official
 * List of Section 13(f) Securities (issuer names and classes by CUSIP) plus SEC's company tickers,
 * matched by issuer name (see company-tickers.ts) to give securities a `ticker` where one is known.
 * Without --from, the newest list SEC publishes (this quarter back to four quarters earlier, both
 * file names) and `files/company_tickers.json` are downloaded. CUSIPs not on the list are kept.
 */

import { IngestError } from '../../core/errors.js';
import type { IngestContext, IngestSource } from '../../core/types.js';
import { rebuildEntityLinksOnSwap } from '../../derived/identity/entity-links.js';
import { type CompanyTicker, parseCompanyTickers, tickerMatcher } from './company-tickers.js';
import { addHeldMissingSecurities } from './holdings/derive/securities.js';

import { reasonKind } from './load-13f.js';

import { parseOfficialList } from './official-list.js';

import { SecClient } from './sec-http.js';

import { decodeSecText } from './text-decoding.js';

import type { OfficialListEntry, Rejection } from './types.js';
import { openZipMembers } from './zip-members.js';

/** Candidate list URLs, newest first: `13flist2026q2.txt` and the newer `13flist2026q2-txt.txt`. */
export function officialListCandidates(sec: SecClient, today = new Date()): string[] {
  const urls: string[] = [];
  let year = today.getUTCFullYear();
  let quarter = Math.floor(today.getUTCMonth() / 3) + 1;
  for (let i = 0; i < 5; i += 1) {
    urls.push(sec.url(`files/investment/13flist${year}q${quarter}-txt.txt`));
    urls.push(sec.url(`files/investment/13flist${year}q${quarter}.txt`));
    quarter -= 1;
    if (quarter === 0) [year, quarter] = [year - 1, 4];
  }
  return urls;
}

async function downloadFirst(sec: SecClient, urls: string[], log: (line: string) => void) {
  for (const url of urls) {
    try {
      return { url, bytes: await sec.get(url) };
    } catch (error) {
      if (!/HTTP 404|HTTP 403/.test((error as Error).message)) throw error;
      log(`not published: ${url}`);
    }
  }
  throw new IngestError(`no Official 13(f) list found at ${urls[urls.length - 1]} or any newer name`);
}

interface Inputs {
  lists: { name: string; text: string }[];
  companies: CompanyTicker[];
  upstream: string[];
}

async function textOf(name: string, bytes: Buffer): Promise<string> {
  if (bytes.subarray(0, 2).toString('latin1') !== 'PK') return decodeSecText(bytes);
  const member = (await openZipMembers(bytes, name)).find((m) => /\.txt$/i.test(m.name));
  if (!member) throw new IngestError(`${name}: no .txt list inside the ZIP`);
  return decodeSecText(await member.read());
}

async function readInputs(ctx: IngestContext, sec: SecClient): Promise<Inputs> {
  const inputs: Inputs = { lists: [], companies: [], upstream: [] };
  const locations = [...ctx.options.from];
  if (locations.length === 0) {
    const list = await downloadFirst(sec, officialListCandidates(sec), ctx.log);
    inputs.lists.push({ name: list.url, text: decodeSecText(list.bytes) });
    inputs.upstream.push(list.url);
    locations.push(sec.url('files/company_tickers.json'));
  }
  for (const location of locations) {
    const text = await textOf(location, await sec.read(location));
    inputs.upstream.push(location);
    if (/^\s*[[{]/.test(text)) inputs.companies.push(...parseCompanyTickers(text));
    else inputs.lists.push({ name: location, text });
  }
  if (inputs.lists.length === 0) throw new IngestError('sec-securities needs an Official 13(f) list (.txt)');
  return inputs;
}

export const secSecuritiesSource: IngestSource = {
  name: 'sec-securities',
  group: 'holdings',
  description:
    'SEC Official List of Section 13(f) Securities + company tickers (issuer, class, ticker by CUSIP)',
  enabledInGroup: (config) => (config.secUserAgent ? true : 'SEC_USER_AGENT is not set'),
  async run(ctx) {
    const sec = new SecClient(ctx);
    const inputs = await readInputs(ctx, sec);
    const match = inputs.companies.length > 0 ? tickerMatcher(inputs.companies) : () => null;
    if (inputs.companies.length === 0) ctx.log('no company_tickers.json given: tickers stay unknown');
    const stager = await ctx.stage({
      table: 'securities',
      columns: ['cusip', 'issuer', 'title_of_class', 'ticker'],
      key: ['cusip'],
      // Upsert by CUSIP: securities known only from filings stay.
      replace: { matching: 'cusip' },
    });
    let tickers = 0;
    for (const list of inputs.lists) {
      const rejections: Rejection[] = [];
      const entries: OfficialListEntry[] = parseOfficialList(list.text, rejections);
      ctx.tally.read += entries.length + rejections.length;
      for (const rejection of rejections) ctx.tally.reject(reasonKind(rejection.reason));
      for (const entry of entries) {
        const ticker = match(entry.issuer, entry.titleOfClass);
        if (ticker !== null) tickers += 1;
        await stager.add({
          cusip: entry.cusip,
          issuer: entry.issuer,
          title_of_class: entry.titleOfClass,
          ticker,
        });
      }
      ctx.log(`${list.name}: ${entries.length} securities`);
    }
    ctx.addNote(`tickers matched for ${tickers} securities`);
    ctx.setUpstream(inputs.upstream.join(' '));
    // A replaced demo security master must not leave held CUSIPs without a row.
    ctx.onSwap(async (trx) => {
      const quarters = await trx.selectFrom('holdings_quarters').select('quarter').execute();
      if (quarters.length > 0)
        await addHeldMissingSecurities(
          ctx.handle,
          trx,
          quarters.map((q) => q.quarter),
        );
    });
    // Tickers lead registrants to their securities.
    rebuildEntityLinksOnSwap(ctx);
  },
};
