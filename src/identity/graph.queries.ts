/**
 * Reads of the identity graph (SPEC §7): an entity by `scheme:value` id, and its links one and two
 * hops away. The graph is built at load time (src/ingest/derived/identity/); these are index reads.
 */
import { type Kysely, type Selectable, sql } from 'kysely';
import { prepared } from '../db/prepared.js';
import type { Database, EntityLinksTable } from '../db/tables.js';

export const SCHEMES = ['cert', 'rssd', 'cik', 'crd', 'cusip', 'ticker'] as const;
export type Scheme = (typeof SCHEMES)[number];

/** Checks and canonicalises an id's value; null when malformed. */
export function canonicalValue(scheme: Scheme, raw: string): string | null {
  const value = raw.trim();
  switch (scheme) {
    case 'cert':
    case 'rssd':
    case 'crd':
      return /^\d{1,12}$/.test(value) ? String(Number(value)) : null;
    case 'cik':
      return /^\d{1,10}$/.test(value) ? value.padStart(10, '0') : null;
    case 'cusip':
      return /^[A-Za-z0-9]{9}$/.test(value) ? value.toUpperCase() : null;
    case 'ticker':
      return /^[A-Za-z0-9][A-Za-z0-9.\-/]{0,11}$/.test(value) ? value.toUpperCase() : null;
  }
}

export interface Entity {
  id: string;
  kind: string;
  name: string;
  identifiers: Record<string, string | number | string[] | null>;
}

const registrantByTicker = prepared((db, ticker: string) =>
  db.selectFrom('sec_registrants').select('cik').where('ticker', '=', ticker),
);

const registrantsOf = prepared((db, cik: string) =>
  db
    .selectFrom('sec_registrants')
    .select(['cik', 'name', 'ticker', 'exchange', 'ordinal'])
    .where('cik', '=', cik),
);

/**
 * A registrant's rows (one per ticker), in the order SEC lists them. Ordered here, not in SQL: a
 * registrant has a few rows, and SQLite's sorter costs ~30 µs to open even for one.
 */
export async function registrantRows(db: Kysely<Database>, cik: string) {
  const rows = await registrantsOf(db, cik);
  return rows.sort((a, b) => Number(a.ordinal) - Number(b.ordinal));
}

async function registrant(
  db: Kysely<Database>,
  where: { cik?: string; ticker?: string },
): Promise<Entity | null> {
  let cik = where.cik;
  if (where.ticker !== undefined) {
    const row = (await registrantByTicker(db, where.ticker))[0];
    if (!row) return null;
    cik = row.cik;
  }
  const rows = await registrantRows(db, cik as string);
  const first = rows[0];
  if (!first) return null;
  return {
    id: `cik:${first.cik}`,
    kind: 'sec_registrant',
    name: first.name,
    identifiers: { cik: first.cik, tickers: rows.map((r) => r.ticker), exchange: first.exchange },
  };
}

export async function findEntity(
  db: Kysely<Database>,
  scheme: Scheme,
  value: string,
): Promise<Entity | null> {
  switch (scheme) {
    case 'cert':
    case 'rssd': {
      const bank = await db
        .selectFrom('institutions')
        .select(['cert', 'name', 'rssd_id'])
        .where(scheme === 'cert' ? 'cert' : 'rssd_id', '=', Number(value))
        .executeTakeFirst();
      if (bank)
        return {
          id: `cert:${bank.cert}`,
          kind: 'bank',
          name: bank.name,
          identifiers: { cert: bank.cert, rssd: bank.rssd_id === null ? null : Number(bank.rssd_id) },
        };
      if (scheme === 'cert') return null;
      const parent = await db
        .selectFrom('entity_links')
        .select('to_name')
        .where('to_id', '=', `rssd:${value}`)
        .where('relation', '=', 'subsidiary_of')
        .executeTakeFirst();
      return parent
        ? {
            id: `rssd:${value}`,
            kind: 'holding_company',
            name: parent.to_name ?? '',
            identifiers: { rssd: Number(value) },
          }
        : null;
    }
    case 'cik': {
      const found = await registrant(db, { cik: value });
      if (found) return found;
      const manager = await db
        .selectFrom('managers')
        .select(['cik', 'name'])
        .where('cik', '=', value)
        .executeTakeFirst();
      return manager
        ? { id: `cik:${manager.cik}`, kind: 'manager', name: manager.name, identifiers: { cik: manager.cik } }
        : null;
    }
    case 'crd': {
      const adviser = await db
        .selectFrom('advisers')
        .select(['crd', 'name', 'sec_number'])
        .where('crd', '=', Number(value))
        .executeTakeFirst();
      return adviser
        ? {
            id: `crd:${adviser.crd}`,
            kind: 'adviser',
            name: adviser.name,
            identifiers: { crd: Number(adviser.crd), sec_number: adviser.sec_number },
          }
        : null;
    }
    case 'cusip': {
      const security = await db
        .selectFrom('securities')
        .select(['cusip', 'issuer', 'ticker'])
        .where('cusip', '=', value)
        .executeTakeFirst();
      return security
        ? {
            id: `cusip:${security.cusip}`,
            kind: 'security',
            name: security.issuer,
            identifiers: { cusip: security.cusip, ticker: security.ticker },
          }
        : null;
    }
    case 'ticker': {
      // A ticker names its registrant (company_tickers); failing that, a security carrying it.
      const found = await registrant(db, { ticker: value });
      if (found) return found;
      const security = await db
        .selectFrom('securities')
        .select('cusip')
        .where('ticker', '=', value)
        .orderBy('cusip')
        .executeTakeFirst();
      return security ? findEntity(db, 'cusip', security.cusip) : null;
    }
  }
}

export type LinkRow = Selectable<EntityLinksTable>;

/** At most this many links are returned (two hops from a large issuer can reach many securities). */
export const MAX_LINKS = 500;

function touching(
  db: Kysely<Database>,
  table: 'entity_links' | 'entity_link_candidates',
  ids: readonly string[],
) {
  // A literal LIMIT: SQLite runs this OR of two index searches ~4× slower when the LIMIT is a bound
  // parameter (15 against 4 µs on an entity without links, measured; the plans are the same).
  return db
    .selectFrom(table)
    .selectAll()
    .where((eb) => eb.or([eb('from_id', 'in', ids), eb('to_id', 'in', ids)]))
    .orderBy('relation')
    .orderBy('from_id')
    .orderBy('to_id')
    .orderBy('valid_from')
    .limit(sql.lit(MAX_LINKS + 1))
    .execute();
}

const keyOf = (row: LinkRow) => `${row.from_id}|${row.relation}|${row.to_id}|${row.valid_from ?? ''}`;

/**
 * The entity's links in both directions (hops 1) and, with `hops` 2, those of the entities they
 * reach (hops 2).
 */
export async function linksOf(db: Kysely<Database>, id: string, hops: 1 | 2 = 2) {
  const first = await touching(db, 'entity_links', [id]);
  const neighbours = [...new Set(first.flatMap((row) => [row.from_id, row.to_id]))].filter((n) => n !== id);
  const second = neighbours.length === 0 || hops === 1 ? [] : await touching(db, 'entity_links', neighbours);
  const seen = new Set(first.map(keyOf));
  const links = [
    ...first.map((row) => ({ row, hops: 1 })),
    ...second.filter((row) => !seen.has(keyOf(row))).map((row) => ({ row, hops: 2 })),
  ];
  const candidates = await touching(db, 'entity_link_candidates', [id]);
  return {
    links: links.slice(0, MAX_LINKS).map(({ row, hops }) => ({ ...toLink(row), hops })),
    truncated: links.length > MAX_LINKS,
    candidates: candidates.slice(0, MAX_LINKS).map(toLink),
  };
}

export function toLink(row: LinkRow) {
  return {
    relation: row.relation,
    from: { id: row.from_id, kind: row.from_kind, name: row.from_name },
    to: { id: row.to_id, kind: row.to_kind, name: row.to_name },
    source: row.source,
    method: row.method,
    confidence: Number(row.confidence),
    valid_from: row.valid_from,
    valid_to: row.valid_to,
  };
}

const outgoing = prepared((db, fromId: string, relation: string) =>
  db
    .selectFrom('entity_links')
    .select(['to_id', 'to_name', 'method', 'valid_to', 'confidence'])
    .where('from_id', '=', fromId)
    .where('relation', '=', relation),
);

type Outgoing = Awaited<ReturnType<typeof outgoing>>[number];

/** Current links first (no valid_to), then the latest valid_to, the most confident, the id. */
function useOrder(a: Outgoing, b: Outgoing): number {
  if (a.valid_to !== b.valid_to) {
    if (a.valid_to === null) return -1;
    if (b.valid_to === null) return 1;
    return a.valid_to > b.valid_to ? -1 : 1;
  }
  const confidence = Number(b.confidence) - Number(a.confidence);
  if (confidence !== 0) return confidence;
  return a.to_id < b.to_id ? -1 : a.to_id > b.to_id ? 1 : 0;
}

/**
 * The entity's outgoing links of `relation`, the one to use first: current ones first, then the
 * most confident, then by id (the bulk export resolves identifiers in the same order, in SQL). Ordered
 * here: an entity has a few links of a relation, and SQLite's sorter costs ~30 µs to open even for
 * one (the bank profile reads three such lists).
 */
export async function linked(db: Kysely<Database>, fromId: string, relation: string) {
  const rows = await outgoing(db, fromId, relation);
  return rows.sort(useOrder);
}

/** The entity's incoming links of `relation`, most confident first, then by id. */
export async function linkedFrom(db: Kysely<Database>, toId: string, relation: string) {
  return db
    .selectFrom('entity_links')
    .select('from_id')
    .where('to_id', '=', toId)
    .where('relation', '=', relation)
    .orderBy('confidence', 'desc')
    .orderBy('from_id')
    .execute();
}
