/**
 * `manager_portfolios`: every derived manager quarter's positions packed in the portfolio's order
 * (src/holdings/portfolio-pack.ts), written as the derivation walks the quarter's managers, in the
 * same transaction as their positions. `backfillManagerPortfolios` packs the positions of a
 * database derived before the table existed (`regdata migrate`).
 */
import { BatchedInsert } from '../../../../../db/batched-insert.js';
import type { DbHandle } from '../../../../../db/connect.js';
import { codeOf, type PositionColumns, packPortfolio } from '../../../../../holdings/portfolio-pack.js';
import type { FilingSumsView } from '../filing-sums.js';
import type { Executor } from './executor.js';
import type { Position } from './positions.js';

/** Packed bytes held before a write (the largest portfolio is ~0.3 MB). */
const BYTES_PER_WRITE = 8 * 1024 * 1024;
const MANAGERS_PER_READ = 200;

function columnsOfPositions(positions: readonly Position[]): PositionColumns {
  return {
    count: positions.length,
    cusip: (i) => (positions[i] as Position).cusip,
    code: (i) => {
      const p = positions[i] as Position;
      return codeOf(p.share_type, p.put_call);
    },
    value: (i) => (positions[i] as Position).value,
    shares: (i) => (positions[i] as Position).shares,
  };
}

/** Collects packed portfolios and writes them in batches of about BYTES_PER_WRITE. */
export class PortfolioWriter {
  private readonly rows: BatchedInsert<'manager_portfolios'>;

  constructor(handle: DbHandle, executor: Executor) {
    this.rows = new BatchedInsert(handle, executor, 'manager_portfolios', BYTES_PER_WRITE);
  }

  async addPositions(quarter: string, cik: string, positions: readonly Position[]): Promise<void> {
    await this.add(quarter, cik, packPortfolio(columnsOfPositions(positions)));
  }

  async addView(quarter: string, cik: string, view: FilingSumsView): Promise<void> {
    await this.add(quarter, cik, view.portfolio);
  }

  private async add(quarter: string, cik: string, positions: Buffer): Promise<void> {
    await this.rows.add({ cik, quarter, positions }, positions.byteLength);
  }

  async flush(): Promise<void> {
    await this.rows.flush();
  }
}

/** Packs the positions of every manager quarter when none is packed yet; returns how many. */
export async function backfillManagerPortfolios(handle: DbHandle, executor: Executor): Promise<number> {
  const packed = await executor.selectFrom('manager_portfolios').select('cik').limit(1).execute();
  if (packed.length > 0) return 0;
  const quarters = await executor
    .selectFrom('manager_quarters')
    .select(['cik', 'quarter'])
    .orderBy('cik')
    .orderBy('quarter')
    .execute();
  const ciks = [...new Set(quarters.map((row) => row.cik))];
  const writer = new PortfolioWriter(handle, executor);
  for (let i = 0; i < ciks.length; i += MANAGERS_PER_READ) {
    const batch = ciks.slice(i, i + MANAGERS_PER_READ);
    const rows = await executor
      .selectFrom('positions')
      .select(['quarter', 'cik', 'cusip', 'share_type', 'put_call', 'value', 'shares', 'is_equity'])
      .where('cik', 'in', batch)
      .execute();
    const held = new Map<string, Position[]>();
    for (const row of rows) {
      const key = `${row.cik}|${row.quarter}`;
      const list = held.get(key) ?? [];
      list.push({ ...row, value: Number(row.value), shares: Number(row.shares) });
      held.set(key, list);
    }
    const first = batch[0] as string;
    const last = batch.at(-1) as string;
    for (const { cik, quarter } of quarters) {
      if (cik < first || cik > last) continue;
      await writer.addPositions(quarter, cik, held.get(`${cik}|${quarter}`) ?? []);
    }
  }
  await writer.flush();
  return quarters.length;
}
