/**
 * A filing's positions summed while its rows are read, so the derivation need not read its raw rows
 * back. A manager's quarter that is exactly one such filing (nearly all of them) takes its positions
 * and totals from here; anything else (NEW HOLDINGS additions, filings of earlier loads, a filing
 * whose rows were not contiguous) is derived from raw rows.
 *
 * The sums are PositionSums' (filing-positions.ts), on the same values, so both paths give identical
 * numbers. They are kept in flat arrays (a few dozen bytes a position), not objects. Each filing's
 * portfolio (`manager_portfolios`) is packed as it is summed, while the loading thread would
 * otherwise wait for the parsing worker, instead of in the derivation after the reading.
 */
import { PORTFOLIO, packInOrder } from '../../../../holdings/portfolio-pack.js';
import { doubled, indexRange, sortByValueDescending } from '../../../../typed-arrays.js';
import type { CusipNumbers } from './derive/cusip-numbers.js';
import type { FilingPositions } from './filing-positions.js';

/** Positions of several filings, back to back; `runs` say which filing owns which slice. */
export interface FlatPositions {
  runs: { accession: string; start: number; count: number; portfolio: Buffer }[];
  /** 9 characters per position. */
  cusips: string;
  codes: Uint8Array;
  /** Thousands of USD, as the positions table stores them. */
  values: Float64Array;
  shares: Float64Array;
}

/** Filings' summed positions, collected until the batch is taken. */
export class FilingSumsBuilder {
  private runs: FlatPositions['runs'] = [];
  /** 9 ASCII bytes per position. */
  private cusips = new Uint8Array(9 * 1024);
  private codes = new Uint8Array(1024);
  private values = new Float64Array(1024);
  private shares = new Float64Array(1024);
  private count = 0;

  get size(): number {
    return this.count;
  }

  /** Adds one filing's positions, drained from its FilingPositions, and packs its portfolio. */
  addFiling(accession: string, positions: FilingPositions, numbers: CusipNumbers): void {
    const start = this.count;
    positions.drain(numbers, (cusip, code, value, shares) => {
      if (this.count === this.codes.length) {
        this.cusips = doubled(this.cusips);
        this.codes = doubled(this.codes);
        this.values = doubled(this.values);
        this.shares = doubled(this.shares);
      }
      const at = this.count++;
      for (let c = 0; c < 9; c++) this.cusips[9 * at + c] = cusip.charCodeAt(c);
      this.codes[at] = code;
      this.values[at] = value;
      this.shares[at] = shares;
    });
    const count = this.count - start;
    this.runs.push({ accession, start, count, portfolio: this.packed(start, count) });
  }

  /**
   * The portfolio of positions [start, start + count). They come in (CUSIP, share type, put/call)
   * order, the pack order's own tie-break, so sorting by value alone, ties kept in that order, gives
   * the pack order.
   */
  private packed(start: number, count: number): Buffer {
    const { values } = this;
    const order = sortByValueDescending(indexRange(start, start + count), values);
    // biome-ignore format: the columns
    return packInOrder(PORTFOLIO, order, { values, shares: this.shares, codes: this.codes, keys: this.cusips,
      keyOf: null });
  }

  /** The batch so far, and a fresh start. */
  take(): FlatPositions {
    const batch: FlatPositions = {
      runs: this.runs,
      cusips: Buffer.from(this.cusips.buffer, 0, 9 * this.count).toString('latin1'),
      codes: this.codes.slice(0, this.count),
      values: this.values.slice(0, this.count),
      shares: this.shares.slice(0, this.count),
    };
    this.runs = [];
    this.count = 0;
    return batch;
  }
}

/** One filing's summed positions: `batch` arrays from `start`, `count` long, and them packed. */
export interface FilingSumsView {
  readonly batch: FlatPositions;
  readonly start: number;
  readonly count: number;
  readonly portfolio: Buffer;
}

/** The summed filings of one load. A filing summed twice (rows not contiguous) has no sums. */
export class FilingSums {
  private readonly views = new Map<string, FilingSumsView | null>();

  add(batch: FlatPositions): void {
    for (const run of batch.runs) {
      // A filing seen again: its rows were not contiguous.
      this.views.set(
        run.accession,
        this.views.has(run.accession)
          ? null
          : { batch, start: run.start, count: run.count, portfolio: run.portfolio },
      );
    }
  }

  /** A filing whose rows (also) arrive another way is derived from its raw rows. */
  forget(accession: string): void {
    if (this.views.has(accession)) this.views.set(accession, null);
  }

  view(accession: string): FilingSumsView | undefined {
    return this.views.get(accession) ?? undefined;
  }
}
