/**
 * Smart-money groups (SPEC §3) between the two most recent quarters, counting only managers with a
 * resolved 13F-HR quarter in BOTH (a manager that has not filed yet is not an exit), equity
 * positions only (SH without put/call).
 * - new_entries: managers holding the CUSIP now but not before; value = their current value.
 * - top_exits: managers holding it before but not now; value = their previous value.
 * - biggest_inflows: Σ over managers holding it now of (shares now − shares before) × (value now ÷
 *   shares now); shares before is 0 for new entries. Full exits have no current price and are not
 *   part of this sum (they are in top_exits). Only securities with a positive net inflow are kept;
 *   manager_count counts the managers that added shares. Shares are as filed (not split-adjusted).
 *
 * Tallied from the changes pass's comparisons (changes.ts), which already match every manager's two
 * portfolios: a manager whose quarter is the latest and whose previous filed quarter is the one
 * before it overall filed both. (Three SQL aggregates over the quarter's positions, with a correlated
 * NOT EXISTS per position, took ~200 s of the full-scale demo's 9.5-minute build.)
 */
import { insertRows } from '../../../../../db/bulk.js';
import type { DbHandle } from '../../../../../db/connect.js';
import type { SmartMoneyTable } from '../../../../../holdings/tables.js';
import { type EquityChanges, NEW, SOLD_OUT } from './equity-changes.js';
import type { Executor } from './executor.js';

interface Counted {
  managers: number;
  value: number;
}

interface Inflow {
  added: number;
  valueChange: number;
  sharesChange: number;
}

function slot<V>(map: Map<string, V>, cusip: string, create: () => V): V {
  let value = map.get(cusip);
  if (value === undefined) {
    value = create();
    map.set(cusip, value);
  }
  return value;
}

const counted = (): Counted => ({ managers: 0, value: 0 });

export class SmartMoneyTally {
  private compared = 0;
  private readonly entries = new Map<string, Counted>();
  private readonly exits = new Map<string, Counted>();
  private readonly inflows = new Map<string, Inflow>();

  /** `quarters`: every quarter with holdings, ascending; the tally compares the last two. */
  constructor(private readonly quarters: readonly string[]) {}

  get quarter(): string | undefined {
    return this.quarters.at(-1);
  }

  get previous(): string | undefined {
    return this.quarters.length >= 2 ? this.quarters.at(-2) : undefined;
  }

  /**
   * One manager's quarter against its previous filed one (its changes, CUSIPs numbers of `cusips`);
   * counts only the latest two overall.
   */
  add(quarter: string, previous: string | null, changes: EquityChanges, cusips: readonly string[]): void {
    if (quarter !== this.quarter || previous === null || previous !== this.previous) return;
    this.compared++;
    for (let r = 0; r < changes.count; r++) {
      const cusip = cusips[changes.cusips[r] as number] as string;
      const status = changes.status[r];
      if (status === SOLD_OUT) {
        const exit = slot(this.exits, cusip, counted);
        exit.managers++;
        exit.value += changes.valueBefore[r] as number;
        continue;
      }
      const value = changes.valueAfter[r] as number;
      if (status === NEW) {
        const entry = slot(this.entries, cusip, counted);
        entry.managers++;
        entry.value += value;
      }
      const shares = changes.sharesAfter[r] as number;
      if (shares > 0) {
        const sharesBefore = changes.filedSharesBefore[r] as number;
        const inflow = slot(this.inflows, cusip, () => ({ added: 0, valueChange: 0, sharesChange: 0 }));
        if (shares > sharesBefore) inflow.added++;
        inflow.valueChange += (shares - sharesBefore) * (value / shares);
        inflow.sharesChange += shares - sharesBefore;
      }
    }
  }

  /** Rewrites smart_money and smart_money_summary (emptied when fewer than two quarters hold data). */
  async write(handle: DbHandle, executor: Executor): Promise<void> {
    await executor.deleteFrom('smart_money').execute();
    await executor.deleteFrom('smart_money_summary').execute();
    const { quarter, previous } = this;
    if (quarter === undefined || previous === undefined) return;
    await insertRows(
      handle,
      'smart_money_summary',
      [{ id: 1, quarter, previous_quarter: previous, managers_compared: this.compared }],
      executor,
    );
    const issuers = await issuersOf(executor);
    const byCount = (map: Map<string, Counted>) =>
      [...map]
        .filter(([cusip]) => issuers.has(cusip))
        .sort(([a, x], [b, y]) => y.managers - x.managers || y.value - x.value || (a < b ? -1 : 1));
    const inflows = [...this.inflows]
      .filter(([cusip, inflow]) => issuers.has(cusip) && inflow.valueChange > 0)
      .sort(([a, x], [b, y]) => y.valueChange - x.valueChange || (a < b ? -1 : 1));
    const row = (grp: string, rank: number, cusip: string) => ({
      grp,
      rank,
      quarter,
      previous_quarter: previous,
      cusip,
      issuer: issuers.get(cusip) as string,
    });
    const records: SmartMoneyTable[] = [
      ...byCount(this.entries).map(([cusip, c], i) => ({
        ...row('new_entries', i + 1, cusip),
        manager_count: c.managers,
        value: c.value,
        value_change: null,
        shares_change: null,
      })),
      ...inflows.map(([cusip, c], i) => ({
        ...row('biggest_inflows', i + 1, cusip),
        manager_count: c.added,
        value: null,
        value_change: c.valueChange,
        shares_change: c.sharesChange,
      })),
      ...byCount(this.exits).map(([cusip, c], i) => ({
        ...row('top_exits', i + 1, cusip),
        manager_count: c.managers,
        value: c.value,
        value_change: null,
        shares_change: null,
      })),
    ];
    await insertRows(handle, 'smart_money', records, executor);
  }
}

/** The security master's issuer names (a position of a CUSIP it lacks counts in no group). */
async function issuersOf(executor: Executor): Promise<Map<string, string>> {
  const rows = await executor.selectFrom('securities').select(['cusip', 'issuer']).execute();
  return new Map(rows.map((row) => [row.cusip, row.issuer]));
}
