/**
 * `security_positions`: a quarter's positions gathered security by security while the derivation
 * goes manager by manager (in CIK order), then written per security, packed in the holders list's
 * order (SECURITY_POSITIONS in portfolio-pack.ts: value descending, then CIK, share type and
 * put/call). Kept in typed-array columns while they come (columns.ts: ~25 bytes a position, no
 * object per position) and grouped by a counting sort, so each security's positions are all that is
 * ever sorted. `backfillSecurityPositions` builds them from the packed portfolios of a database
 * derived before the table existed (`regdata migrate`).
 */
import { BatchedInsert } from '../../../../../db/batched-insert.js';
import type { DbHandle } from '../../../../../db/connect.js';
import {
  codeRank,
  packPositions,
  SECURITY_POSITIONS,
  unpackPortfolio,
} from '../../../../../holdings/portfolio-pack.js';
import { float64Column, groupedBy, ManagerNumbers, uint8Column, uint32Column } from './columns.js';
import type { Executor } from './executor.js';

/** Packed positions are written once they reach about this many bytes. */
const BYTES_PER_WRITE = 16 << 20;
const MANAGERS_PER_READ = 500;

export class SecurityPositions {
  private readonly managers = new ManagerNumbers(SECURITY_POSITIONS.keyBytes);
  private count = 0;
  private written = false;
  private readonly security = uint32Column();
  private readonly manager = uint32Column();
  private readonly code = uint8Column();
  private readonly value = float64Column();
  private readonly shares = float64Column();

  /** The manager whose positions follow; managers must come in ascending CIK order. */
  startManager(cik: string): void {
    this.managers.start(cik);
  }

  /** One position of the current manager in security number `security` (see `write`'s cusips). */
  add(security: number, code: number, value: number, shares: number): void {
    if (this.written) throw new Error("a quarter's security positions are written once");
    const at = this.count++;
    this.security.set(at, security);
    this.manager.set(at, this.managers.current);
    this.code.set(at, code);
    this.value.set(at, value);
    this.shares.set(at, shares);
  }

  /**
   * Writes the quarter's rows, `cusips[s]` being security number s; returns how many. Once only:
   * the columns are let go as they are written.
   */
  async write(
    handle: DbHandle,
    executor: Executor,
    quarter: string,
    cusips: readonly string[],
  ): Promise<number> {
    if (this.written) throw new Error("a quarter's security positions are written once");
    this.written = true;
    const { starts, order } = groupedBy(this.security.take(this.count), cusips.length);
    const manager = this.manager.take(this.count);
    const code = this.code.take(this.count);
    const value = this.value.take(this.count);
    const shares = this.shares.take(this.count);
    const { ciks } = this.managers;
    const k = SECURITY_POSITIONS.keyBytes;
    const cikBytes = Buffer.from(ciks.join(''), 'latin1');
    // Managers are numbered in CIK order, so comparing numbers compares CIKs.
    const byPage = (a: number, b: number) =>
      (value[b] as number) - (value[a] as number) ||
      (manager[a] as number) - (manager[b] as number) ||
      codeRank(code[a] as number) - codeRank(code[b] as number);
    const rows = new BatchedInsert(handle, executor, 'security_positions', BYTES_PER_WRITE);
    let written = 0;
    for (let s = 0; s < cusips.length; s++) {
      const held = order.subarray(starts[s], starts[s + 1]).sort(byPage);
      if (held.length === 0) continue;
      const at = (i: number) => held[i] as number;
      const positions = packPositions(
        SECURITY_POSITIONS,
        {
          count: held.length,
          key: (i) => ciks[manager[at(i)] as number] as string,
          copyKey: (i, into, to) => {
            const from = k * (manager[at(i)] as number);
            into.set(cikBytes.subarray(from, from + k), to);
          },
          code: (i) => code[at(i)] as number,
          value: (i) => value[at(i)] as number,
          shares: (i) => shares[at(i)] as number,
        },
        true,
      );
      await rows.add({ quarter, cusip: cusips[s] as string, positions }, positions.byteLength);
      written++;
    }
    await rows.flush();
    return written;
  }
}

/**
 * Every quarter's security positions when none is stored but manager quarters are packed: a database
 * derived before migration 0016 (the packed portfolios come from 0012's backfill at the latest).
 * Returns how many quarters it wrote.
 */
export async function backfillSecurityPositions(handle: DbHandle, executor: Executor): Promise<number> {
  const stored = await executor.selectFrom('security_positions').select('cusip').limit(1).execute();
  if (stored.length > 0) return 0;
  const quarters = await executor.selectFrom('manager_portfolios').select('quarter').distinct().execute();
  for (const { quarter } of quarters) {
    const managers = await executor
      .selectFrom('manager_portfolios')
      .select('cik')
      .where('quarter', '=', quarter)
      .orderBy('cik')
      .execute();
    const gathered = new SecurityPositions();
    const securities = new Map<string, number>();
    for (let i = 0; i < managers.length; i += MANAGERS_PER_READ) {
      const ciks = managers.slice(i, i + MANAGERS_PER_READ).map((m) => m.cik);
      const rows = await executor
        .selectFrom('manager_portfolios')
        .select(['cik', 'positions'])
        .where('quarter', '=', quarter)
        .where('cik', 'in', ciks)
        .orderBy('cik')
        .execute();
      for (const row of rows) {
        const pack = unpackPortfolio(row.positions);
        gathered.startManager(row.cik);
        for (let j = 0; j < pack.count; j++) {
          const cusip = pack.cusip(j);
          let security = securities.get(cusip);
          if (security === undefined) {
            security = securities.size;
            securities.set(cusip, security);
          }
          gathered.add(security, pack.codes[j] as number, pack.values[j] as number, pack.shares[j] as number);
        }
      }
    }
    await gathered.write(handle, executor, quarter, [...securities.keys()]);
  }
  return quarters.length;
}
