/**
 * A bank's place in the identity graph (SPEC §7): its top holding company, the SEC registrant above
 * it (the holding company's, or the bank's own when it is registered itself), institutional
 * ownership of the registrant's stock from 13F, and the registrant's own 13F filings.
 */
import type { Kysely } from 'kysely';
import { prepared } from '../db/prepared.js';
import type { Database } from '../db/tables.js';
import { money } from '../holdings/params.js';
import { putCallOf } from '../holdings/portfolio-pack.js';
import { securityPositions } from '../holdings/portfolios.queries.js';
import { linked, registrantRows } from '../identity/graph.queries.js';
import { holdingCompanyId } from '../ingest/derived/identity/ids.js';
import { BANK_RECORD_COLUMNS } from './banks.queries.js';

const TOP_HOLDERS = 10;

// The profile's fixed-shape queries, compiled once (db/prepared.ts): it runs about ten a request.
const institution = prepared((db, cert: number) =>
  db
    .selectFrom('institutions')
    .select([...BANK_RECORD_COLUMNS, 'holding_company_rssd', 'rssd_id'])
    .where('cert', '=', cert),
);

const holderChanges = prepared((db, quarter: string, cusip: string) =>
  db
    .selectFrom('security_changes')
    .select(['new_count', 'added_count', 'reduced_count', 'unchanged_count', 'sold_out_count'])
    .where('quarter', '=', quarter)
    .where('cusip', '=', cusip),
);

const latestManagerQuarter = prepared((db, cik: string) =>
  db
    .selectFrom('manager_quarters')
    .select(['quarter', 'total_value'])
    .where('cik', '=', cik)
    .orderBy('quarter', 'desc')
    .limit(1),
);

export async function registrantOf(db: Kysely<Database>, parentId: string | null, bankId: string) {
  for (const from of [parentId, bankId]) {
    if (from === null) continue;
    const link = (await linked(db, from, 'registered_as'))[0];
    if (!link) continue;
    const [row] = await registrantRows(db, link.to_id.slice('cik:'.length));
    if (row) return row;
  }
  return null;
}

/**
 * The security's TOP_HOLDERS largest positions that are not options (shares or principal amounts),
 * from its packed positions (value descending, then CIK), named from each manager's latest cover page.
 * The packed positions are the holders list's read index when `maxBytes` allows (a widely held
 * security's are ~120–200 KB of overflow pages, read for 10 entries otherwise).
 */
async function topHolders(db: Kysely<Database>, quarter: string, cusip: string, maxBytes: number) {
  const pack = await securityPositions(db, quarter, cusip, maxBytes);
  const top: { cik: string; value: number; shares: number }[] = [];
  for (let i = 0; pack && i < pack.count && top.length < TOP_HOLDERS; i++) {
    if (putCallOf(pack.codes[i] as number) !== null) continue;
    top.push({ cik: pack.key(i), value: pack.values[i] as number, shares: pack.shares[i] as number });
  }
  if (top.length === 0) return [];
  const names = await db
    .selectFrom('managers')
    .select(['cik', 'name'])
    .where(
      'cik',
      'in',
      top.map((h) => h.cik),
    )
    .execute();
  const nameOf = new Map(names.map((m) => [m.cik, m.name]));
  return top.flatMap((h) => {
    const name = nameOf.get(h.cik);
    return name === undefined ? [] : [{ ...h, name }];
  });
}

/** Ownership of the registrant's most widely held security in the latest quarter it is held. */
export async function institutionalOwnership(db: Kysely<Database>, cik: string, maxBytes: number) {
  const cusips = (await linked(db, `cik:${cik}`, 'issuer_of')).map((l) => l.to_id.slice('cusip:'.length));
  if (cusips.length === 0) return null;
  const held = await db
    .selectFrom('security_latest')
    .select(['cusip', 'latest_quarter', 'holder_count', 'total_value'])
    .where('cusip', 'in', cusips)
    .orderBy('total_value', 'desc')
    .orderBy('cusip')
    .executeTakeFirst();
  if (!held) return null;
  const [holders, [changes]] = await Promise.all([
    topHolders(db, held.latest_quarter, held.cusip, maxBytes),
    holderChanges(db, held.latest_quarter, held.cusip),
  ]);
  return {
    quarter: held.latest_quarter,
    cusip: held.cusip,
    holder_count: Number(held.holder_count),
    total_value: money(held.total_value),
    top_holders: holders.map((h) => ({
      cik: h.cik,
      name: h.name,
      value: money(h.value),
      shares: Number(h.shares),
    })),
    changes: changes
      ? {
          new: Number(changes.new_count),
          added: Number(changes.added_count),
          reduced: Number(changes.reduced_count),
          unchanged: Number(changes.unchanged_count),
          sold_out: Number(changes.sold_out_count),
        }
      : null,
  };
}

/** The registrant's own 13F filings (same CIK), latest quarter. */
export async function files13f(db: Kysely<Database>, cik: string) {
  const filer = (await linked(db, `cik:${cik}`, 'files_13f_as'))[0];
  if (!filer) return null;
  const [latest] = await latestManagerQuarter(db, cik);
  return latest ? { cik, latest_quarter: latest.quarter, total_value: money(latest.total_value) } : null;
}

/** `maxBytes`: the read indexes' budget (READ_INDEX_MAX_BYTES; 0 reads everything from the database). */
export async function bankProfile(db: Kysely<Database>, cert: number, maxBytes: number) {
  const [bank] = await institution(db, cert);
  if (!bank) return null;
  const parentRssd = bank.holding_company_rssd === null ? null : Number(bank.holding_company_rssd);
  const parentId = holdingCompanyId(parentRssd, bank.holding_company);
  const registrant = await registrantOf(db, parentId, `cert:${cert}`);
  const [ownership, filer] = registrant
    ? await Promise.all([institutionalOwnership(db, registrant.cik, maxBytes), files13f(db, registrant.cik)])
    : [null, null];
  return {
    bank: {
      cert: bank.cert,
      name: bank.name,
      rssd_id: bank.rssd_id === null ? null : Number(bank.rssd_id),
      city: bank.city,
      state: bank.state,
      charter_class: bank.charter_class,
      asset_size: bank.asset_size,
      established: bank.established,
      active: bank.active === 1,
    },
    holding_company:
      parentId === null ? null : { id: parentId, name: bank.holding_company, rssd_id: parentRssd },
    registrant,
    institutional_ownership: ownership,
    files_13f: filer,
  };
}
