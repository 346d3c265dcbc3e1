/**
 * The security master as the derivation sees it, and the CUSIPs it lacks: every CUSIP held in a
 * derived quarter gets a `securities` row, named from the filings themselves when the Official List
 * has not been loaded: the greatest issuer and class text filed for it (as SQL's max() would pick)
 * in any 13F-HR filing of the quarter, applied or superseded: a name filed is a name filed, and the
 * load can collect them while it reads, without reading the rows back.
 */
import { sql } from 'kysely';
import { insertRows } from '../../../../../db/bulk.js';
import type { DbHandle } from '../../../../../db/connect.js';
import type { InfoRowFields } from '../info-row-codec.js';
import { CusipNumbers } from './cusip-numbers.js';
import type { Executor } from './executor.js';
import { FILINGS_PER_READ, readFilingRows } from './filing-rows.js';
import { ISSUER, NotedTexts, TITLE } from './noted-texts.js';

export type SecurityMaster = Map<string, { issuer: string; title_of_class: string | null }>;

export async function loadSecurityMaster(executor: Executor): Promise<SecurityMaster> {
  const rows = await executor
    .selectFrom('securities')
    .select(['cusip', 'issuer', 'title_of_class'])
    .execute();
  return new Map(rows.map((row) => [row.cusip, { issuer: row.issuer, title_of_class: row.title_of_class }]));
}

/** The text of `length` UTF-8 bytes at `at`; null for length −1. */
const decoded = (texts: Uint8Array, at: number, length: number) =>
  length < 0 ? null : Buffer.from(texts.buffer, texts.byteOffset + at, length).toString('utf8');

const greater = (a: string | null, b: string | null) => (a === null ? b : b === null || a >= b ? a : b);

/**
 * Collects the filed names of CUSIPs the master lacks. Hot (every row of a load): the CUSIPs are
 * numbered (CusipNumbers, which hashes no string) and their names kept in arrays by number. A load
 * that numbers its CUSIPs anyway shares its numbering (`numbers`) and notes by number.
 */
export class UnknownSecurities {
  /** By CUSIP number: the name noted, undefined for a CUSIP not noted. */
  private issuers: (string | undefined)[] = [];
  private titles: (string | null)[] = [];
  /** The numbers noted, in the order first noted. */
  private order: number[] = [];
  /** The bytes of names already noted, to skip rows that repeat them (noteNumberBytes). */
  private noted = new NotedTexts();

  constructor(
    private readonly master: SecurityMaster,
    private readonly numbers = new CusipNumbers(),
  ) {}

  note(cusip: string, row: InfoRowFields): void {
    this.noteName(cusip, row[1], row[2]);
  }

  noteName(cusip: string, issuer: string, title: string | null): void {
    // A load notes against an empty master (the derivation checks it later): no string hashed then.
    if (this.master.size > 0 && this.master.has(cusip)) return;
    this.noteUnknown(this.numbers.numberOf(cusip), issuer, title);
  }

  /** noteName for CUSIP number `n` of `numbers`. */
  noteNumber(n: number, issuer: string, title: string | null): void {
    if (this.inMaster(n)) return;
    this.noteUnknown(n, issuer, title);
  }

  private inMaster(n: number): boolean {
    return this.master.size > 0 && this.master.has(this.numbers.cusips[n] as string);
  }

  /** Notes a name of CUSIP number `n`, which the master lacks. */
  private noteUnknown(n: number, issuer: string, title: string | null): void {
    while (this.issuers.length <= n) {
      this.issuers.push(undefined);
      this.titles.push(null);
    }
    const known = this.issuers[n];
    if (known === undefined) {
      this.issuers[n] = issuer;
      this.titles[n] = title;
      this.order.push(n);
      return;
    }
    // Most rows repeat the name already noted, and equality is the cheaper test.
    if (issuer !== known && issuer > known) this.issuers[n] = issuer;
    const knownTitle = this.titles[n] as string | null;
    if (title !== knownTitle) this.titles[n] = greater(knownTitle, title);
  }

  /**
   * noteNumber for an issuer and class given as UTF-8 bytes: `length` bytes from `at` in `texts`,
   * the class right after the issuer (TextColumn's form: length −1 for null). Most rows repeat names
   * already noted: those are recognised by their bytes, and only the others are decoded.
   */
  noteNumberBytes(n: number, texts: Uint8Array, at: number, issuerLength: number, titleLength: number): void {
    // Accepted rows always have an issuer (infoRowRefusal).
    if (issuerLength < 0) throw new Error('an information-table row without an issuer');
    // Only texts noted are kept as noted: none for a CUSIP the master has.
    if (this.inMaster(n)) return;
    const titleAt = at + issuerLength;
    const { noted } = this;
    if (noted.has(n, ISSUER, texts, at, issuerLength) && noted.has(n, TITLE, texts, titleAt, titleLength))
      return;
    const issuer = decoded(texts, at, issuerLength) as string;
    const title = decoded(texts, titleAt, titleLength);
    this.noteUnknown(n, issuer, title);
    noted.keep(n, ISSUER, texts, at, issuerLength, this.issuers[n] === issuer);
    noted.keep(n, TITLE, texts, titleAt, titleLength, this.titles[n] === title);
  }

  /** Notes names collected elsewhere (another UnknownSecurities). */
  noteAll(other: UnknownSecurities): void {
    for (const [cusip, name] of other.names()) this.noteName(cusip, name.issuer, name.title_of_class);
  }

  /** Each CUSIP noted with its name, in the order first noted. */
  *names(): Generator<[string, { issuer: string; title_of_class: string | null }]> {
    const { cusips } = this.numbers;
    for (const n of this.order)
      yield [
        cusips[n] as string,
        { issuer: this.issuers[n] as string, title_of_class: this.titles[n] as string | null },
      ];
  }

  /** Forgets every name noted. */
  clear(): void {
    this.issuers = [];
    this.titles = [];
    this.order = [];
    this.noted = new NotedTexts();
  }
}

/** Inserts the unknown CUSIPs that are `held` into `securities` and the master. */
export async function addMissingSecurities(
  handle: DbHandle,
  executor: Executor,
  unknown: UnknownSecurities,
  master: SecurityMaster,
  held: (cusip: string) => boolean,
): Promise<void> {
  const rows = [...unknown.names()]
    .filter(([cusip]) => held(cusip))
    .map(([cusip, name]) => ({ cusip, ...name, ticker: null }));
  await insertRows(handle, 'securities', rows, executor);
  for (const row of rows) master.set(row.cusip, { issuer: row.issuer, title_of_class: row.title_of_class });
  unknown.clear();
}

/**
 * After the security master was replaced: adds every CUSIP held in `quarters` that the new master
 * lacks, named from the applied filings' rows. Checks the held CUSIPs first (a key read) and
 * reads raw rows only when a CUSIP is missing.
 */
export async function addHeldMissingSecurities(
  handle: DbHandle,
  executor: Executor,
  quarters: readonly string[],
): Promise<void> {
  if (quarters.length === 0) return;
  // The held CUSIPs the new master lacks (security_positions has a row per CUSIP held).
  const { rows: held } = await sql<{ cusip: string }>`
    select distinct d.cusip from security_positions d where d.quarter in (${sql.join(quarters)})
    and not exists (select 1 from securities s where s.cusip = d.cusip)
  `.execute(executor);
  if (held.length === 0) return;
  const master = await loadSecurityMaster(executor);
  const unknown = new UnknownSecurities(master);
  const filings = await executor
    .selectFrom('filings_13f')
    .select('accession_number')
    .where('quarter', 'in', quarters)
    .where('form_type', 'like', '13F-HR%')
    .execute();
  await noteFiledNames(
    executor,
    filings.map((row) => row.accession_number),
    unknown,
  );
  const missingCusips = new Set(held.map((row) => row.cusip));
  await addMissingSecurities(handle, executor, unknown, master, (cusip) => missingCusips.has(cusip));
}

/** Notes the names filed in these filings' rows. */
export async function noteFiledNames(
  executor: Executor,
  accessions: readonly string[],
  unknown: UnknownSecurities,
): Promise<void> {
  for (let i = 0; i < accessions.length; i += FILINGS_PER_READ) {
    const rows = await readFilingRows(executor, accessions.slice(i, i + FILINGS_PER_READ));
    for (const filingRows of rows.values())
      for (const row of filingRows) unknown.note(row[0].toUpperCase(), row);
  }
}
