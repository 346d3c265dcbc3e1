/**
 * `regdata ingest sec-advisers [--from <csv|zip|xml|xml.gz|url>]`: SEC-registered investment
 * advisers. Without --from, the newest monthly `ia{MMDDYY}.zip` linked from SEC's adviser-data page
 * is used. A load is the complete list, so it replaces every served adviser. AUM is USD.
 */

import { gunzipSync } from 'node:zlib';
import { searchKey } from '../../../db/search.js';
import { USPS_CODES } from '../../../usps-codes.js';
import { IngestError } from '../../core/errors.js';
import type { IngestContext, IngestSource } from '../../core/types.js';
import { rebuildEntityLinksOnSwap } from '../../derived/identity/entity-links.js';
import { readAdviserCsv } from './adv-csv.js';
import { linkAdviserCiks } from './holdings/derive/adviser-ciks.js';
import { parseIapdFeed } from './iapd-xml.js';
import { reasonKind } from './load-13f.js';
import { isUrl, linksOn, SecClient } from './sec-http.js';
import { chunksOf, decodeSecText } from './text-decoding.js';
import type { AdviserRecord, Rejection } from './types.js';
import { openZipMembers } from './zip-members.js';

export const ADVISERS_PAGE =
  'data-research/sec-markets-data/information-about-registered-investment-advisers-exempt-reporting-advisers';

const US = new Set<string>(USPS_CODES);

/** `ia020226.zip` → `2026-02-02`, for picking the newest file. */
export function adviserFileDate(url: string): string {
  const match = /ia(\d{2})(\d{2})(\d{2})\.(zip|csv|xlsx)$/i.exec(url);
  return match ? `20${match[3]}-${match[1]}-${match[2]}` : '';
}

async function discoverLatest(sec: SecClient): Promise<string> {
  const page = sec.url(ADVISERS_PAGE);
  const html = (await sec.get(page)).toString('utf8');
  const links = linksOn(html, page, /\/ia\d{6}\.zip$/i).sort((a, b) =>
    adviserFileDate(b).localeCompare(adviserFileDate(a)),
  );
  if (links.length === 0) throw new IngestError(`no ia{MMDDYY}.zip link found on ${page}`);
  return links[0]!;
}

/** The adviser records of one input, whatever its form (CSV, ZIP of a CSV, IAPD XML, gzipped). */
async function readAdvisers(
  name: string,
  bytes: Buffer,
  rejections: Rejection[],
  onSkip: (r: string) => void,
) {
  const advisers: AdviserRecord[] = [];
  if (bytes[0] === 0x1f && bytes[1] === 0x8b)
    return readAdvisers(name.replace(/\.gz$/i, ''), gunzipSync(bytes), rejections, onSkip);
  if (bytes.subarray(0, 2).toString('latin1') === 'PK') {
    const members = await openZipMembers(bytes, name);
    const csv = members.find((m) => /\.(csv|txt)$/i.test(m.name));
    const xml = members.find((m) => /\.xml$/i.test(m.name));
    const member = csv ?? xml;
    if (!member) {
      const names = members.map((m) => m.name).join(', ');
      throw new IngestError(
        `${name}: no CSV or XML inside (found ${names}); convert an XLSX release to CSV first`,
      );
    }
    return readAdvisers(`${name}/${member.name}`, await member.read(), rejections, onSkip);
  }
  const text = decodeSecText(bytes);
  if (/^\s*</.test(text)) {
    await parseIapdFeed(chunksOf(text), (adviser) => advisers.push(adviser), rejections);
  } else {
    for await (const adviser of readAdviserCsv(text, rejections, onSkip)) advisers.push(adviser);
  }
  return advisers;
}

function adviserRow(adviser: AdviserRecord) {
  const state = adviser.state !== null && US.has(adviser.state) ? adviser.state : null;
  const address = [adviser.street1, adviser.street2].filter((part) => part !== null).join(', ');
  return {
    crd: adviser.crd,
    sec_number: adviser.secNumber,
    cik: null,
    name: adviser.name,
    search_name: searchKey(adviser.name),
    legal_name: adviser.legalName,
    search_legal_name: adviser.legalName === null ? null : searchKey(adviser.legalName),
    address: address === '' ? null : address,
    city: adviser.city,
    state,
    country: adviser.country ?? (state !== null ? 'United States' : null),
    phone: adviser.phone,
    website: adviser.website,
    aum: adviser.aum,
    discretionary_aum: adviser.discretionaryAum,
    employees: adviser.employees,
    clients: adviser.clients,
    registration_status: adviser.registrationStatus,
    latest_filing_date: adviser.latestFilingDate,
  };
}

export const secAdvisersSource: IngestSource = {
  name: 'sec-advisers',
  group: 'holdings',
  description: 'SEC registered investment advisers (monthly Form ADV CSV/ZIP or IAPD XML feed)',
  enabledInGroup: (config) => (config.secUserAgent ? true : 'SEC_USER_AGENT is not set'),
  async run(ctx: IngestContext) {
    const sec = new SecClient(ctx);
    const locations = ctx.options.from.length > 0 ? [...ctx.options.from] : [await discoverLatest(sec)];
    const stager = await ctx.stage({
      table: 'advisers',
      // biome-ignore format: column list
      columns: ['crd', 'sec_number', 'cik', 'name', 'search_name', 'legal_name', 'search_legal_name', 'address',
        'city', 'state', 'country', 'phone', 'website', 'aum', 'discretionary_aum', 'employees', 'clients',
        'registration_status', 'latest_filing_date'],
      key: ['crd'],
      replace: 'all',
    });
    for (const location of locations) {
      const rejections: Rejection[] = [];
      const name = isUrl(location) ? new URL(location).pathname : location;
      const advisers = await readAdvisers(name, await sec.read(location), rejections, (r) =>
        ctx.tally.skip(r),
      );
      ctx.tally.read += advisers.length + rejections.length;
      for (const rejection of rejections) ctx.tally.reject(reasonKind(rejection.reason));
      for (const adviser of advisers) await stager.add(adviserRow(adviser));
      ctx.log(`${location}: ${advisers.length} advisers`);
    }
    ctx.setUpstream(locations.join(' '));
    // The new records have no CIK of their own: link them to the 13F filers already loaded.
    ctx.onSwap((trx) => linkAdviserCiks(trx));
    rebuildEntityLinksOnSwap(ctx);
  },
};
