/**
 * SQLite: the load's summed filing positions, written to a TEMP table while the data set is still
 * being parsed (by the other thread), so that the swap transaction copies the positions of every
 * single-filing manager quarter with one INSERT … SELECT instead of binding millions of rows then.
 * Rows of a filing are consecutive rowids; the view remembers which. (CROSS JOIN keeps the ranges
 * as the outer loop: SQLite reads each range by rowid.)
 */
import type { DbHandle } from '../../../../../db/connect.js';
import { PUT_CALLS, SHARE_TYPES } from '../../../../../holdings/portfolio-pack.js';
import type { FilingSumsView, FlatPositions } from '../filing-sums.js';

const TABLE = 'temp.filing_positions_13f';
const RANGES = 'temp.filing_positions_13f_used';
const ROWS_PER_INSERT = 50;
const TUPLE = '(?, ?, ?, ?)';

/** The positions columns from a staged row's one-byte code (filing-sums.ts: share type × put/call). */
const quoted = (text: string | null) => (text === null ? 'null' : `'${text}'`);
const SHARE_TYPE_SQL = `case p.code / ${PUT_CALLS.length} ${SHARE_TYPES.map((t, i) => `when ${i} then ${quoted(t)}`).join(' ')} end`;
const PUT_CALL_SQL = `case p.code % ${PUT_CALLS.length} ${PUT_CALLS.map((t, i) => `when ${i} then ${quoted(t)}`).join(' ')} end`;

type Sqlite = NonNullable<DbHandle['sqlite']>;

export class StagedPositions {
  private written = 0;

  private constructor(private readonly sqlite: Sqlite) {}

  /** A fresh staging table on SQLite; null on PostgreSQL (the derivation writes from memory). */
  static open(handle: DbHandle): StagedPositions | null {
    const sqlite = handle.sqlite;
    if (!sqlite) return null;
    sqlite.exec(`drop table if exists ${TABLE}`);
    sqlite.exec(`create table ${TABLE} (cusip text, code integer, value real, shares integer)`);
    return new StagedPositions(sqlite);
  }

  /**
   * Appends a batch of summed positions in one transaction (of the TEMP table only), all of them in
   * order, so most statements carry ROWS_PER_INSERT rows; `views` (filings of the batch) learn where
   * their rows went.
   */
  write(batch: FlatPositions, views: readonly FilingSumsView[]): void {
    const columns = '(cusip, code, value, shares)';
    const many = this.sqlite.prepare(
      `insert into ${TABLE} ${columns} values ${Array(ROWS_PER_INSERT).fill(TUPLE).join(', ')}`,
    );
    const one = this.sqlite.prepare(`insert into ${TABLE} ${columns} values ${TUPLE}`);
    const values: unknown[] = new Array(ROWS_PER_INSERT * 4);
    const put = (at: number, i: number) => {
      values[at] = batch.cusips.slice(i * 9, i * 9 + 9);
      values[at + 1] = batch.codes[i];
      values[at + 2] = batch.values[i];
      values[at + 3] = batch.shares[i];
    };
    const count = batch.codes.length;
    this.sqlite.exec('begin');
    try {
      let i = 0;
      for (; i + ROWS_PER_INSERT <= count; i += ROWS_PER_INSERT) {
        for (let j = 0; j < ROWS_PER_INSERT; j++) put(j * 4, i + j);
        many.run(values);
      }
      for (; i < count; i++) {
        put(0, i);
        one.run(values.slice(0, 4));
      }
      this.sqlite.exec('commit');
    } catch (error) {
      this.sqlite.exec('rollback');
      throw error;
    }
    // A table only appended to numbers its rows max(rowid) + 1.
    for (const view of views) {
      view.staged = { first: this.written + view.start + 1, last: this.written + view.start + view.count };
    }
    this.written += count;
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
      select r.quarter, r.cik, p.cusip, ${SHARE_TYPE_SQL}, ${PUT_CALL_SQL}, p.value, p.shares, p.code = 0
      from ${RANGES} r cross join ${TABLE} p on p.rowid between r.first and r.last
    `);
    this.sqlite.exec(`drop table ${RANGES}`);
  }

  close(): void {
    this.sqlite.exec(`drop table if exists ${TABLE}`);
  }
}
