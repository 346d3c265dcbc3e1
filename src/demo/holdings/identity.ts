/**
 * The demo's side of the identity graph (docs/identity.md): the holding companies of the largest
 * demo banks are listed companies — their stock is among the 13F securities, a few of them file 13F
 * themselves — and every listed demo issuer is an SEC registrant. Some are left unlinkable on
 * purpose (a registrant name too far from the holding company's, one fixed by a demo override), and
 * some advisers match a 13F filer only by name, city and state. Pure functions of the generated data;
 * no random draw, so the rest of the demo stays as it was.
 */
import type { Insertable, Kysely } from 'kysely';
import { searchKey } from '../../db/search.js';
import type { Database, SecRegistrantsTable } from '../../db/tables.js';
import type { AdvisersTable } from '../../holdings/tables.js';
import { cikId, holdingCompanyId } from '../../ingest/derived/identity/ids.js';
import { normaliseEntityName } from '../../ingest/derived/identity/names.js';
import type { Overrides } from '../../ingest/derived/identity/overrides.js';
import type { DemoManager } from './managers.js';
import type { DemoSecurity } from './universe.js';

/** Listed holding companies; every 10th gets a registrant name matching cannot reach. */
const LISTED = 30;
/** Of those, the ones whose registrant also files 13F (a bank's trust department). */
const FILERS = 6;
/** Advisers (after the CIK-sharing ones) that match a 13F filer by name, city and state only. */
const NAME_MATCHED_ADVISERS = 20;

export interface ListedHoldingCompany {
  readonly id: string;
  readonly name: string;
}

/**
 * The holding companies of the largest active banks loaded (the banking demo's, built first), each
 * a name no other parent shares. Read from the database, so the holdings demo matches whatever
 * banking data it is built next to (none: no listed holding company).
 */
export async function listedHoldingCompanies(db: Kysely<Database>): Promise<ListedHoldingCompany[]> {
  const institutions = await db
    .selectFrom('institutions')
    .select(['cert', 'holding_company', 'holding_company_rssd', 'asset_size', 'active'])
    .where('holding_company', 'is not', null)
    .orderBy('asset_size', (ob) => ob.desc().nullsLast())
    .orderBy('cert')
    .execute();
  const idsByName = new Map<string, Set<string>>();
  const idOf = (bank: (typeof institutions)[number]) =>
    holdingCompanyId(
      bank.holding_company_rssd === null ? null : Number(bank.holding_company_rssd),
      bank.holding_company,
    );
  for (const bank of institutions) {
    const key = normaliseEntityName(bank.holding_company as string);
    idsByName.set(key, (idsByName.get(key) ?? new Set()).add(idOf(bank) as string));
  }
  const listed = new Map<string, ListedHoldingCompany>();
  for (const bank of institutions) {
    if (bank.active !== 1) continue;
    const name = bank.holding_company as string;
    if (idsByName.get(normaliseEntityName(name))?.size !== 1) continue;
    const id = idOf(bank) as string;
    if (!listed.has(id)) listed.set(id, { id, name });
    if (listed.size === LISTED) break;
  }
  return [...listed.values()];
}

/** `Oakwood Bancshares, Inc.` → `OAKWOOD BANCSHARES INC`, as the 13(f) list writes issuers. */
const issuerStyle = (name: string) =>
  name
    .toUpperCase()
    .replace(/[^A-Z0-9& ]+/g, '')
    .replace(/\s+/g, ' ')
    .trim();

/** The registrant name SEC would list: three spellings in turn; every 10th one too far to match. */
function registrantName(name: string, i: number): string {
  if (i % 10 === 9) return `${name.split(' ')[0]} Regional Holdings Group`;
  if (i % 3 === 0) return `${issuerStyle(name)} /DE/`;
  if (i % 3 === 1) return name.replace(/,? Inc\.?$/, ' Inc');
  return issuerStyle(name);
}

export interface DemoIdentity {
  readonly registrants: Insertable<SecRegistrantsTable>[];
  readonly overrides: Overrides;
}

/**
 * Renames the listed securities' issuers and a few managers after the listed holding companies
 * (before any filing is generated, so filings carry the names), and returns the registrants.
 */
export function applyDemoIdentity(
  listed: readonly ListedHoldingCompany[],
  securities: DemoSecurity[],
  managers: DemoManager[],
): DemoIdentity {
  // Popular common stocks (not the mega-caps), one per issuer.
  const issuers = new Map<string, DemoSecurity[]>();
  for (const security of securities) {
    const code = security.cusip.slice(0, 6);
    issuers.set(code, [...(issuers.get(code) ?? []), security]);
  }
  const listedCodes = [...issuers.entries()]
    .filter(([, classes]) => classes.some((s) => s.share_type === 'SH' && s.ticker !== null))
    .slice(10, 10 + listed.length)
    .map(([code]) => code);
  const holdingOf = new Map<string, { company: ListedHoldingCompany; index: number }>();
  listedCodes.forEach((code, index) => {
    const company = listed[index] as ListedHoldingCompany;
    holdingOf.set(code, { company, index });
    for (const security of issuers.get(code) ?? []) security.issuer = issuerStyle(company.name);
  });
  const filerCik = new Map<string, string>();
  listedCodes.slice(0, FILERS).forEach((code, i) => {
    const manager = managers[40 + i] as DemoManager;
    manager.name = issuerStyle(listed[i]?.name as string);
    filerCik.set(code, manager.cik);
  });

  const registrants: Insertable<SecRegistrantsTable>[] = [];
  const manual: Overrides['links'][number][] = [];
  let fresh = 0;
  for (const [code, classes] of issuers) {
    const common = classes.find((s) => s.share_type === 'SH' && s.ticker !== null);
    if (!common?.ticker) continue;
    const holding = holdingOf.get(code);
    const cik = (filerCik.get(code) ?? String(2_500_000 + fresh++)).padStart(10, '0');
    const name = holding ? registrantName(holding.company.name, holding.index) : titleCase(common.issuer);
    registrants.push({
      cik,
      ticker: common.ticker,
      name,
      exchange: fresh % 3 === 0 ? 'NYSE' : 'Nasdaq',
      ordinal: 0,
    });
    // The first unmatchable one is linked by hand, as an operator would fix it.
    if (holding && holding.index === 9)
      manual.push({ from: holding.company.id, relation: 'registered_as', to: cikId(cik), note: 'demo' });
  }
  return { registrants, overrides: { links: manual, vetoes: [] } };
}

function titleCase(name: string): string {
  return name.toLowerCase().replace(/\b[a-z]/g, (c) => c.toUpperCase());
}

/**
 * Advisers after the CIK-sharing ones take a 13F filer's name (upper case), city and state but no
 * CIK: only the name match links them.
 */
export function nameMatchedAdvisers(
  advisers: Insertable<AdvisersTable>[],
  managers: readonly DemoManager[],
  sharedCik: number,
): void {
  for (let i = sharedCik; i < sharedCik + NAME_MATCHED_ADVISERS && i < advisers.length; i++) {
    const manager = managers[i * 3 + 1];
    const adviser = advisers[i] as Insertable<AdvisersTable>;
    if (!manager || manager.state === null) continue;
    adviser.name = manager.name.toUpperCase();
    adviser.search_name = searchKey(adviser.name);
    adviser.city = manager.city;
    adviser.state = manager.state;
    adviser.cik = null;
  }
}
