/**
 * One report date's call reports in memory, column by column: a read index (db/read-indexes.ts)
 * that answers `/api/v1/financials` without `cert` — filters on any field, any sort, counts — from
 * arrays instead of reading the date's rows per request. A date holds ~7,500 reports of 176 fields
 * at full scale, ~1.5 KB a row on disk: a filtered, re-sorted 500-row page read ~11 MB of pages
 * per request (3–8 ms) plus a count; here ~11 MB once per date and dataset version (~60 ms).
 *
 * The rules are the SQL path's (financials.queries.ts), row for row: institutions without an
 * institutions row are not listed (inner join), a null never matches a comparison, `sortBy` puts
 * nulls last and breaks ties by cert. Nulls are held as NaN (no call-report value is NaN).
 */
import type { Kysely } from 'kysely';
import { readIndex, type Sized } from '../db/read-indexes.js';
import type { Database } from '../db/tables.js';
import type { Page } from '../http/paging.js';
import { FIELD_NAMES } from './fields/catalogue.js';
import type { FieldFilter } from './fields/filters.js';
import { type RecordShape, toFinancialRecord } from './financials.queries.js';

export interface SnapshotRow {
  cert: number;
  name: string;
  state: string | null;
  [field: string]: unknown;
}

const numberOrNaN = (value: unknown) => (value === null || value === undefined ? Number.NaN : Number(value));
const orNull = (value: number) => (Number.isNaN(value) ? null : value);

export class ReportDateSnapshot implements Sized {
  private readonly certs: Float64Array;
  private readonly names: string[] = [];
  private readonly states: (string | null)[] = [];
  private readonly columns = new Map<string, Float64Array>();
  /** `${field} ${direction}` → the rows in that order. */
  private readonly orders = new Map<string, Int32Array>();
  private filled = 0;

  /** An empty snapshot with room for `count` rows, filled by `add` (in any order). */
  constructor(
    readonly date: string,
    count: number,
  ) {
    this.certs = new Float64Array(count);
    for (const field of FIELD_NAMES) this.columns.set(field, new Float64Array(count));
  }

  add(rows: readonly SnapshotRow[]): void {
    for (const row of rows) {
      const i = this.filled++;
      this.certs[i] = row.cert;
      this.names.push(row.name);
      this.states.push(row.state);
      for (const [field, column] of this.columns) column[i] = numberOrNaN(row[field]);
    }
  }

  /** The columns, names and states, and room for the sort orders of 16 fields. */
  get bytes(): number {
    return this.certs.length * (8 * (this.columns.size + 1) + 64 + 4 * 16);
  }

  /**
   * The rows in `sortBy`'s order (nulls last, ties by cert), sorted on first use: a list walks it
   * and keeps what matches, so no request sorts.
   */
  private ordered(field: string, direction: 'asc' | 'desc'): Int32Array {
    const name = `${field} ${direction}`;
    let order = this.orders.get(name);
    if (!order) {
      const key = this.column(field);
      const sign = direction === 'desc' ? -1 : 1;
      order = Int32Array.from({ length: this.certs.length }, (_, i) => i).sort((a, b) => {
        const x = key[a] as number;
        const y = key[b] as number;
        const xNull = Number.isNaN(x);
        const yNull = Number.isNaN(y);
        if (xNull !== yNull) return xNull ? 1 : -1;
        if (!xNull && x !== y) return sign * (x - y);
        return (this.certs[a] as number) - (this.certs[b] as number);
      });
      this.orders.set(name, order);
    }
    return order;
  }

  /** The rows matching `state` and every filter, in `shape`'s order. */
  private matching(state: string | undefined, filters: readonly FieldFilter[], shape: RecordShape): number[] {
    const columns = filters.map((filter) => this.column(filter.field));
    const rows: number[] = [];
    for (const i of this.ordered(shape.sortBy, shape.sortDir)) {
      if (state !== undefined && this.states[i] !== state) continue;
      let keep = true;
      for (let f = 0; keep && f < filters.length; f++)
        keep = matches((columns[f] as Float64Array)[i] as number, filters[f] as FieldFilter);
      if (keep) rows.push(i);
    }
    return rows;
  }

  /** One page of the list and the total, as listAtDate and countAtDate give them. */
  page(state: string | undefined, filters: readonly FieldFilter[], shape: RecordShape, page: Page) {
    const rows = this.matching(state, filters, shape);
    const shown = rows.slice(page.offset, page.offset + page.limit);
    const data = shape.fields ? this.records(shown, shape.fields) : shown.map((i) => this.record(i));
    return { data, total: rows.length };
  }

  private column(field: string): Float64Array {
    const column = this.columns.get(field);
    if (!column) throw new Error(`${field} is not a catalogue field`);
    return column;
  }

  /** The default record (financials.queries.ts's toFinancialRecord). */
  private record(i: number) {
    const value = (field: string) => orNull(this.column(field)[i] as number);
    // biome-ignore format: the default record's fields
    return toFinancialRecord({ cert: this.certs[i] as number, name: this.names[i] as string, report_date: this.date,
      total_assets: value('total_assets'), total_deposits: value('total_deposits'), total_loans: value('total_loans'),
      roa: value('roa'), roe: value('roe'), efficiency_ratio: value('efficiency_ratio'), npl_ratio: value('npl_ratio'),
      tier1_leverage: value('tier1_leverage'), state: this.states[i] ?? null, equity_ratio: value('equity_ratio'),
      loan_to_deposit: value('loan_to_deposit'), charge_off_rate: value('charge_off_rate') });
  }

  /** `fields=` records: cert, name, report date and the fields in the order asked. */
  private records(rows: readonly number[], fields: readonly string[]) {
    const make = recordMaker(fields);
    const columns = fields.map((field) => this.column(field));
    return rows.map((i) =>
      make(
        this.certs[i] as number,
        this.names[i] as string,
        this.date,
        columns.map((column) => orNull(column[i] as number)),
      ),
    );
  }
}

type MakeRecord = (cert: number, name: string, date: string, values: (number | null)[]) => object;
const makers = new Map<string, MakeRecord>();

/**
 * A function building `{cert, name, report_date, <fields…>}` as one object literal, per list of
 * fields: every record of a page then shares one hidden class, and JSON.stringify serialises such
 * objects about twice as fast as ones whose properties were added one by one (measured on a
 * 500-row, 23-field page). Field names are catalogue names (checked before they get here).
 */
function recordMaker(fields: readonly string[]): MakeRecord {
  const key = fields.join(',');
  let make = makers.get(key);
  if (!make) {
    const members = fields.map((field, i) => `${JSON.stringify(field)}: values[${i}]`).join(', ');
    make = new Function(
      'cert',
      'name',
      'date',
      'values',
      `return { cert, name, report_date: date, ${members} };`,
    ) as MakeRecord;
    if (makers.size >= 1000) makers.delete(makers.keys().next().value as string);
    makers.set(key, make);
  }
  return make;
}

function matches(value: number, filter: FieldFilter): boolean {
  if (filter.op === 'isnull') return Number.isNaN(value) === filter.value;
  if (Number.isNaN(value)) return false;
  switch (filter.op) {
    case 'gte':
      return value >= filter.value;
    case 'gt':
      return value > filter.value;
    case 'lte':
      return value <= filter.value;
    case 'lt':
      return value < filter.value;
  }
}

/** Rows read per query while a snapshot is built. */
const ROWS_PER_READ = 500;

/**
 * The snapshot of `date` (a read index), or null when read indexes are off. Read 500 institutions at
 * a time in one repeatable-read transaction: the whole date's ~7,500 rows of ~190 values as objects
 * at once (~35 MB) outlived the young generation and grew the heap for good (RSS +110 MB).
 */
export function reportDateSnapshot(
  db: Kysely<Database>,
  date: string,
  maxBytes: number,
): Promise<ReportDateSnapshot | null> {
  return readIndex(db, `financials|${date}`, maxBytes, () =>
    db
      .transaction()
      .setIsolationLevel('repeatable read')
      .execute(async (trx) => {
        const listed = await trx
          .selectFrom('financials as f')
          .innerJoin('institutions as i', 'i.cert', 'f.cert')
          .select('f.cert')
          .where('f.report_date', '=', date)
          .execute();
        const certs = listed.map((row) => row.cert);
        const snapshot = new ReportDateSnapshot(date, certs.length);
        for (let at = 0; at < certs.length; at += ROWS_PER_READ) {
          const rows = await trx
            .selectFrom('financials as f')
            .innerJoin('institutions as i', 'i.cert', 'f.cert')
            .selectAll('f')
            .select(['i.name', 'i.state'])
            .where('f.report_date', '=', date)
            .where('f.cert', 'in', certs.slice(at, at + ROWS_PER_READ))
            .execute();
          snapshot.add(rows as unknown as SnapshotRow[]);
        }
        return snapshot;
      }),
  );
}
