/**
 * SQLite: the load's summed filing positions, written to a TEMP table while the data set is still
 * being parsed (by the other thread), so that the swap transaction copies the positions of every
 * single-filing manager quarter with one INSERT … SELECT instead of binding millions of rows then.
 * Rows of a filing are consecutive rowids; the view remembers which. (CROSS JOIN keeps the ranges
 * as the outer loop: SQLite reads each range by rowid.)
 */
import type { DbHandle } from '../../db/connect.js';
import { type FilingSumsView, isEquityCode, putCallOf, shareTypeOf } from '../filing-sums.js';

const TABLE = 'temp.filing_positions_13f';
const RANGES = 'temp.filing_positions_13f_used';
const ROWS_PER_INSERT = 50;
const TUPLE = '(?, ?, ?, ?, ?, ?)';

type Sqlite = NonNullable<DbHandle['sqlite']>;

export class StagedPositions {
  private written = 0;

  private constructor(private readonly sqlite: Sqlite) {}

  /** A fresh staging table on SQLite; null on PostgreSQL (the derivation writes from memory). */
  static open(handle: DbHandle): StagedPositions | null {
    const sqlite = handle.sqlite;
    if (!sqlite) return null;
    sqlite.exec(`drop table if exists ${TABLE}`);
    sqlite.exec(
      `create table ${TABLE} (cusip text, share_type text, put_call text, value real, shares integer, is_equity integer)`,
    );
    return new StagedPositions(sqlite);
  }

  /** Appends the filings' positions in one transaction (of the TEMP table only). */
  write(views: readonly FilingSumsView[]): void {
    const columns = '(cusip, share_type, put_call, value, shares, is_equity)';
    const many = this.sqlite.prepare(
      `insert into ${TABLE} ${columns} values ${Array(ROWS_PER_INSERT).fill(TUPLE).join(', ')}`,
    );
    const one = this.sqlite.prepare(`insert into ${TABLE} ${columns} values ${TUPLE}`);
    const values: unknown[] = new Array(ROWS_PER_INSERT * 6);
    const put = (at: number, { batch }: FilingSumsView, i: number) => {
      const code = batch.codes[i] as number;
      values[at] = batch.cusips.slice(i * 9, i * 9 + 9);
      values[at + 1] = shareTypeOf(code);
      values[at + 2] = putCallOf(code);
      values[at + 3] = batch.values[i];
      values[at + 4] = batch.shares[i];
      values[at + 5] = isEquityCode(code) ? 1 : 0;
    };
    this.sqlite.exec('begin');
    try {
      for (const view of views) {
        const end = view.start + view.count;
        let i = view.start;
        for (; i + ROWS_PER_INSERT <= end; i += ROWS_PER_INSERT) {
          for (let j = 0; j < ROWS_PER_INSERT; j++) put(j * 6, view, i + j);
          many.run(values);
        }
        for (; i < end; i++) {
          put(0, view, i);
          one.run(values.slice(0, 6));
        }
        // A table only appended to numbers its rows max(rowid) + 1.
        view.staged = { first: this.written + 1, last: this.written + view.count };
        this.written += view.count;
      }
      this.sqlite.exec('commit');
    } catch (error) {
      this.sqlite.exec('rollback');
      throw error;
    }
  }

  /** Inside the swap: copies the staged positions of these manager quarters into `positions`. */
  copy(quarters: readonly { quarter: string; cik: string; view: FilingSumsView }[]): void {
    this.sqlite.exec(`drop table if exists ${RANGES}`);
    this.sqlite.exec(`create table ${RANGES} (quarter text, cik text, first integer, last integer)`);
    const insert = this.sqlite.prepare(`insert into ${RANGES} values (?, ?, ?, ?)`);
    for (const { quarter, cik, view } of quarters) {
      if (!view.staged) throw new Error('filing positions were not staged');
      insert.run(quarter, cik, view.staged.first, view.staged.last);
    }
    this.sqlite.exec(`
      insert into positions (quarter, cik, cusip, share_type, put_call, value, shares, is_equity)
      select r.quarter, r.cik, p.cusip, p.share_type, p.put_call, p.value, p.shares, p.is_equity
      from ${RANGES} r cross join ${TABLE} p on p.rowid between r.first and r.last
    `);
    this.sqlite.exec(`drop table ${RANGES}`);
  }

  close(): void {
    this.sqlite.exec(`drop table if exists ${TABLE}`);
  }
}
