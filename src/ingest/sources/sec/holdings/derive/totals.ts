/**
 * Per-manager and per-security totals of resolved quarters, the per-quarter summary and the
 * managers table (latest cover page of each filer).
 */
import { sql } from 'kysely';
import { insertRows } from '../../../../../db/bulk.js';
import type { DbHandle } from '../../../../../db/connect.js';
import { searchKey } from '../../../../../db/search.js';
import { codeOf, isEquityCode, putCallOf } from '../../../../../holdings/portfolio-pack.js';
import type { FilingSumsView } from '../filing-sums.js';
import type { BackgroundPacking } from './background-packing.js';
import type { CusipNumbers } from './cusip-numbers.js';
import type { Executor } from './executor.js';
import type { Position } from './positions.js';
import type { ResolvedQuarter } from './resolve.js';
import { SecurityPositions } from './security-positions.js';

export interface ManagerTotals {
  total_value: number;
  position_count: number;
  equity_value: number;
  options_count: number;
}

export function managerTotals(positions: readonly Position[]): ManagerTotals {
  const totals = { total_value: 0, position_count: positions.length, equity_value: 0, options_count: 0 };
  for (const position of positions) {
    totals.total_value += position.value;
    if (position.is_equity === 1) totals.equity_value += position.value;
    if (position.put_call !== null) totals.options_count += 1;
  }
  return totals;
}

/** managerTotals of a filing's summed positions (same order, same sums). */
export function filingTotals(view: FilingSumsView): ManagerTotals {
  const { batch, start, count } = view;
  const totals = { total_value: 0, position_count: count, equity_value: 0, options_count: 0 };
  for (let i = start; i < start + count; i++) {
    const value = batch.values[i] as number;
    const code = batch.codes[i] as number;
    totals.total_value += value;
    if (isEquityCode(code)) totals.equity_value += value;
    if (putCallOf(code) !== null) totals.options_count += 1;
  }
  return totals;
}

/** One manager_quarters row per resolved quarter (a 13F-HR with no rows has zero totals). */
export async function writeManagerQuarters(
  handle: DbHandle,
  executor: Executor,
  resolved: readonly ResolvedQuarter[],
  totals: ReadonlyMap<string, ManagerTotals>,
): Promise<void> {
  const accessions = resolved.map((r) => r.latest.accession_number);
  const covers = new Map<
    string,
    { manager_name: string; city: string | null; state: string | null; country: string | null }
  >();
  for (let i = 0; i < accessions.length; i += 5000) {
    const rows = await executor
      .selectFrom('filings_13f')
      .select(['accession_number', 'manager_name', 'city', 'state', 'country'])
      .where('accession_number', 'in', accessions.slice(i, i + 5000))
      .execute();
    for (const row of rows) covers.set(row.accession_number, row);
  }
  const rows = resolved.map((r) => {
    const cover = covers.get(r.latest.accession_number);
    const total = totals.get(`${r.cik}|${r.quarter}`);
    const name = cover?.manager_name ?? r.cik;
    return {
      cik: r.cik,
      quarter: r.quarter,
      name,
      search_name: searchKey(name),
      city: cover?.city ?? null,
      state: cover?.state ?? null,
      country: cover?.country ?? null,
      accession_number: r.base.accession_number,
      form_type: r.latest.form_type,
      filed_at: r.latest.filing_date,
      total_value: total?.total_value ?? 0,
      position_count: total?.position_count ?? 0,
      equity_value: total?.equity_value ?? 0,
      options_count: total?.options_count ?? 0,
    };
  });
  await insertRows(handle, 'manager_quarters', rows, executor);
}

interface SecurityTally {
  holder_count: number;
  total_value: number;
  equity_manager_count: number;
  equity_value: number;
  equity_shares: number;
}

/**
 * Per-security totals of one quarter, fed one manager's positions at a time (managers in CIK order):
 * holders = managers with any position in the CUSIP, equity figures from SH positions without
 * put/call only (options and principal amounts are not shares, so total_shares counts equity
 * shares). Every position is also gathered for the quarter's `security_positions`. Securities are
 * tallied by their CUSIP number (`numbers`, shared with the daily crowding).
 */
export class SecurityTotals {
  /** Per CUSIP number: its tally, once a manager holds it. */
  private readonly tallies: (SecurityTally | undefined)[] = [];
  private readonly positions = new SecurityPositions();
  /** The CUSIP numbers of the positions last added (reused from call to call). */
  private added = new Int32Array(1024);
  /** The CUSIP number of the current manager's previous position, and whether it was equity. */
  private previous = -1;
  private equityCounted = false;

  constructor(private readonly numbers: CusipNumbers) {}

  /** Adds a manager's positions; returns their CUSIP numbers (valid until the next add). */
  addManager(cik: string, positions: readonly Position[]): Int32Array {
    const added = this.start(cik, positions.length);
    positions.forEach((p, i) => {
      const n = this.numbers.numberOf(p.cusip);
      added[i] = n;
      this.addPosition(n, codeOf(p.share_type, p.put_call), p.value, p.shares);
    });
    return added;
  }

  /** Whether any manager of the quarter holds the CUSIP. */
  holds(cusip: string): boolean {
    const n = this.numbers.find(cusip);
    return n !== undefined && this.tallies[n] !== undefined;
  }

  /** addManager for a filing's summed positions. */
  addFiling(cik: string, { batch, start, count }: FilingSumsView): Int32Array {
    const added = this.start(cik, count);
    const { cusips, codes, values, shares } = batch;
    for (let i = 0; i < count; i++) {
      const at = start + i;
      const n = this.numbers.numberIn(cusips, at * 9);
      added[i] = n;
      this.addPosition(n, codes[at] as number, values[at] as number, shares[at] as number);
    }
    return added;
  }

  private start(cik: string, count: number): Int32Array {
    this.positions.startManager(cik);
    this.previous = -1;
    this.equityCounted = false;
    if (this.added.length < count) this.added = new Int32Array(Math.max(count, 2 * this.added.length));
    return this.added.subarray(0, count);
  }

  /** One position of the current manager; its positions come ordered by CUSIP. */
  private addPosition(n: number, code: number, value: number, shares: number): void {
    let tally = this.tallies[n];
    if (!tally) {
      tally = { holder_count: 0, total_value: 0, equity_manager_count: 0, equity_value: 0, equity_shares: 0 };
      this.tallies[n] = tally;
    }
    // A manager's rows of one CUSIP are adjacent: it counts once as a holder of it.
    if (n !== this.previous) {
      this.previous = n;
      tally.holder_count += 1;
      this.equityCounted = false;
    }
    this.positions.add(n, code, value, shares);
    tally.total_value += value;
    if (isEquityCode(code)) {
      tally.equity_value += value;
      tally.equity_shares += shares;
      if (!this.equityCounted) tally.equity_manager_count += 1;
      this.equityCounted = true;
    }
  }

  /** Hands the quarter's security_positions (every CUSIP held, named or not) over for packing. */
  async packPositions(packing: BackgroundPacking, quarter: string): Promise<void> {
    await packing.pack('security-positions', this.positions.take(quarter, this.numbers.cusips));
  }

  /** Writes the quarter's rows; issuer and class come from the security master. */
  async write(
    handle: DbHandle,
    executor: Executor,
    quarter: string,
    master: ReadonlyMap<string, { issuer: string; title_of_class: string | null }>,
  ): Promise<void> {
    const records = this.tallies.flatMap((tally, n) => {
      const cusip = this.numbers.cusips[n] as string;
      const security = tally && master.get(cusip);
      if (!security) return [];
      return [
        {
          quarter,
          cusip,
          issuer: security.issuer,
          search_issuer: searchKey(security.issuer),
          title_of_class: security.title_of_class,
          holder_count: tally.holder_count,
          total_value: tally.total_value,
          total_shares: tally.equity_shares,
          equity_manager_count: tally.equity_manager_count,
          equity_value: tally.equity_value,
          equity_shares: tally.equity_shares,
        },
      ];
    });
    records.sort((a, b) => (a.cusip < b.cusip ? -1 : 1));
    await insertRows(handle, 'security_quarters', records, executor);
  }
}

/** Rebuilds the per-quarter summary from manager_quarters (all quarters; it is small). */
export async function writeHoldingsQuarters(executor: Executor): Promise<void> {
  await executor.deleteFrom('holdings_quarters').execute();
  await sql`
    insert into holdings_quarters (quarter, manager_count, position_count, total_value)
    select quarter, count(*), sum(position_count), sum(total_value)
    from manager_quarters group by quarter
  `.execute(executor);
}

/** Rebuilds `managers` from the latest filing (any form type) of every filer. */
export async function writeManagers(handle: DbHandle, executor: Executor): Promise<void> {
  const rows = await executor
    .selectFrom('filings_13f')
    .select(['cik', 'manager_name', 'city', 'state', 'country', 'filing_date', 'accession_number'])
    .orderBy('cik')
    .orderBy('filing_date')
    .orderBy('accession_number')
    .execute();
  const latest = new Map<string, (typeof rows)[number]>();
  for (const row of rows) latest.set(row.cik, row);
  await executor.deleteFrom('managers').execute();
  const managers = [...latest.values()].map((row) => ({
    cik: row.cik,
    name: row.manager_name,
    search_name: searchKey(row.manager_name),
    city: row.city,
    state: row.state,
    country: row.country,
  }));
  await insertRows(handle, 'managers', managers, executor);
}
