/**
 * The identity graph's answers the exported views carry (SPEC §7), loaded once per export as small
 * maps: which SEC registrant (CIK, first ticker) a bank or holding company is, which adviser (CRD)
 * a 13F filer is. The graph's tables are small next to the data (one row per link).
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../db/tables.js';

export interface Registrant {
  readonly cik: string;
  readonly ticker: string | null;
}

/** `registered_as` links: entity id (`rssd:…`, `name:…`, `cert:…`) → the registrant it is. */
export async function registrantsById(db: Kysely<Database>): Promise<Map<string, Registrant>> {
  const [links, tickers] = await Promise.all([
    db
      .selectFrom('entity_links')
      .select(['from_id', 'to_id'])
      .where('relation', '=', 'registered_as')
      .orderBy('from_id')
      .orderBy('valid_to', (ob) => ob.desc().nullsFirst())
      .orderBy('confidence', 'desc')
      .orderBy('to_id')
      .execute(),
    db.selectFrom('sec_registrants').select(['cik', 'ticker']).where('ordinal', '=', 0).execute(),
  ]);
  const tickerOf = new Map(tickers.map((row) => [row.cik, row.ticker]));
  const registrants = new Map<string, Registrant>();
  for (const link of links) {
    const cik = link.to_id.slice('cik:'.length);
    // An entity's first link in linked()'s order wins, as the API's bank profile reads it.
    if (!registrants.has(link.from_id))
      registrants.set(link.from_id, { cik, ticker: tickerOf.get(cik) ?? null });
  }
  return registrants;
}

/** `same_firm_as` links: 13F filer CIK → the adviser's CRD (the most confident link). */
export async function adviserCrdByCik(db: Kysely<Database>): Promise<Map<string, number>> {
  const links = await db
    .selectFrom('entity_links')
    .select(['from_id', 'to_id'])
    .where('relation', '=', 'same_firm_as')
    .orderBy('confidence', 'desc')
    .orderBy('from_id')
    .execute();
  const crds = new Map<string, number>();
  for (const link of links) {
    const cik = link.to_id.slice('cik:'.length);
    if (!crds.has(cik)) crds.set(cik, Number(link.from_id.slice('crd:'.length)));
  }
  return crds;
}
