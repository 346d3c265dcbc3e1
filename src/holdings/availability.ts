/** Which holdings data is loaded: 503 when a dataset is missing, 404 for quarters without filings. */
import type { Kysely } from 'kysely';
import { perVersion } from '../db/per-version.js';
import type { Database } from '../db/tables.js';
import { dataUnavailable, notFound } from '../http/problem.js';

export const HOLDINGS_MISSING =
  'No 13F holdings data is loaded: run `regdata ingest sec-13f` (or `regdata demo` for the synthetic demo dataset)';
export const ADVISERS_MISSING =
  'No investment-adviser (Form ADV) data is loaded: run `regdata ingest sec-advisers` (or `regdata demo`)';

const quarters = perVersion(async (db) => {
  const rows = await db.selectFrom('holdings_quarters').select('quarter').orderBy('quarter').execute();
  return rows.map((row) => row.quarter);
});

/**
 * Quarters with at least one resolved 13F-HR, ascending (read once per dataset version: nearly every
 * holdings answer asks); 503 when there are none.
 */
export async function loadedQuarters(db: Kysely<Database>): Promise<string[]> {
  const loaded = await quarters(db);
  if (loaded.length === 0) throw dataUnavailable(HOLDINGS_MISSING);
  return [...loaded];
}

/** The quarter asked for (404 when it has no filings) or the latest one. */
export async function quarterOrLatest(db: Kysely<Database>, requested: string | undefined): Promise<string> {
  const quarters = await loadedQuarters(db);
  if (requested === undefined) return quarters.at(-1) as string;
  if (!quarters.includes(requested)) throw notFound(`No 13F filings are loaded for quarter ${requested}`);
  return requested;
}

export async function requireAdvisers(db: Kysely<Database>): Promise<void> {
  const any = await db.selectFrom('advisers').select('crd').limit(1).executeTakeFirst();
  if (!any) throw dataUnavailable(ADVISERS_MISSING);
}

/** The manager's identity, 404 when the CIK never filed a 13F of any kind. */
export async function requireManager(db: Kysely<Database>, cik: string) {
  const manager = await db.selectFrom('managers').selectAll().where('cik', '=', cik).executeTakeFirst();
  if (!manager) throw notFound(`No 13F filer with CIK ${cik}`);
  return manager;
}
