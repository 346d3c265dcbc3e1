/**
 * Writes information-table rows into their staging table. A data set has ~3.8 million of them, so on
 * SQLite they skip the generic per-row Stager path (an object per row, re-mapped on flush) and go as
 * flat value arrays through one cached multi-row prepared statement, in transactions of 20,000 rows.
 * PostgreSQL keeps the Stager path. Either way the core's staging table, swap and counts are used.
 */
import type { Statement } from 'better-sqlite3';
import type { DbHandle } from '../../../db/connect.js';
import type { Stager } from '../../core/staging.js';

// biome-ignore format: column list
export const INFO_ROW_COLUMNS = ['accession_number', 'cusip', 'issuer', 'title_of_class', 'value', 'shares',
  'share_type', 'put_call', 'investment_discretion', 'voting_sole', 'voting_shared', 'voting_none'] as const;

export type InfoRowValues = [
  string,
  string,
  string,
  string | null,
  number,
  number,
  string,
  string | null,
  string | null,
  number | null,
  number | null,
  number | null,
];

const ROWS_PER_STATEMENT = 500;
const ROWS_PER_TRANSACTION = 20_000;

export class InfoRowWriter {
  private values: unknown[] = [];
  private pending = 0;
  private statement: Statement | null = null;
  private single: Statement | null = null;

  constructor(
    private readonly handle: DbHandle,
    private readonly stager: Stager<'info_rows_13f'>,
  ) {}

  /** True when rows go through `addSync` (SQLite); otherwise use `add`. */
  get synchronous(): boolean {
    return this.handle.sqlite !== null;
  }

  async add(row: InfoRowValues): Promise<void> {
    if (this.synchronous) return this.addSync(row);
    const record = Object.fromEntries(INFO_ROW_COLUMNS.map((column, i) => [column, row[i]]));
    await this.stager.add(record as never);
  }

  /** SQLite: buffers the row without an await per row (millions of rows). */
  addSync(row: InfoRowValues): void {
    for (const value of row) this.values.push(value);
    this.pending += 1;
    if (this.pending >= ROWS_PER_TRANSACTION) this.flush();
  }

  /** Writes what is buffered (SQLite); call once after the last row. */
  flush(): void {
    const sqlite = this.handle.sqlite;
    if (!sqlite || this.pending === 0) return;
    const width = INFO_ROW_COLUMNS.length;
    const insert = `insert into ${this.stager.stagingTable} (${INFO_ROW_COLUMNS.join(', ')}) values `;
    const tuple = `(${Array(width).fill('?').join(',')})`;
    this.statement ??= sqlite.prepare(insert + Array(ROWS_PER_STATEMENT).fill(tuple).join(','));
    this.single ??= sqlite.prepare(insert + tuple);
    const full = Math.floor(this.pending / ROWS_PER_STATEMENT) * ROWS_PER_STATEMENT;
    sqlite.exec('begin');
    try {
      for (let row = 0; row < full; row += ROWS_PER_STATEMENT) {
        this.statement.run(this.values.slice(row * width, (row + ROWS_PER_STATEMENT) * width));
      }
      for (let row = full; row < this.pending; row += 1) {
        this.single.run(this.values.slice(row * width, (row + 1) * width));
      }
      sqlite.exec('commit');
    } catch (error) {
      sqlite.exec('rollback');
      throw error;
    }
    this.stager.staged += this.pending;
    this.values = [];
    this.pending = 0;
  }
}
