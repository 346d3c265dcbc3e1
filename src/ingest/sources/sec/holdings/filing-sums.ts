/**
 * A filing's positions summed while its rows are read, so the derivation need not read its raw rows
 * back. A manager's quarter that is exactly one such filing (nearly all of them) takes its positions
 * and totals from here; anything else (NEW HOLDINGS additions, filings of earlier loads, a filing
 * whose rows were not contiguous) is derived from raw rows.
 *
 * The sums are computed by the derivation's own PositionSums, on the same values, so both paths give
 * identical numbers. They are kept in flat arrays (a few dozen bytes a position), not objects.
 */
import { codeOf } from '../../../../holdings/portfolio-pack.js';
import type { Position } from './derive/positions.js';

/** Positions of several filings, back to back; `runs` say which filing owns which slice. */
export interface FlatPositions {
  runs: { accession: string; start: number; count: number }[];
  /** 9 characters per position. */
  cusips: string;
  codes: Uint8Array;
  /** Thousands of USD, as the positions table stores them. */
  values: Float64Array;
  shares: Float64Array;
}

/** Sums filings' rows as they are read, until the batch is taken. */
export class FilingSumsBuilder {
  private runs: FlatPositions['runs'] = [];
  private cusips: string[] = [];
  private codes: number[] = [];
  private values: number[] = [];
  private shares: number[] = [];

  get size(): number {
    return this.codes.length;
  }

  /** Adds one filing's positions, as PositionSums gives them. */
  addFiling(accession: string, positions: readonly Position[]): void {
    this.runs.push({ accession, start: this.codes.length, count: positions.length });
    for (const position of positions) {
      this.cusips.push(position.cusip);
      this.codes.push(codeOf(position.share_type, position.put_call));
      this.values.push(position.value);
      this.shares.push(position.shares);
    }
  }

  /** The batch so far, and a fresh start. */
  take(): FlatPositions {
    const batch: FlatPositions = {
      runs: this.runs,
      cusips: this.cusips.join(''),
      codes: Uint8Array.from(this.codes),
      values: Float64Array.from(this.values),
      shares: Float64Array.from(this.shares),
    };
    this.runs = [];
    this.cusips = [];
    this.codes = [];
    this.values = [];
    this.shares = [];
    return batch;
  }
}

/** One filing's summed positions: `batch` arrays from `start`, `count` long. */
export interface FilingSumsView {
  readonly batch: FlatPositions;
  readonly start: number;
  readonly count: number;
}

/** The summed filings of one load. A filing summed twice (rows not contiguous) has no sums. */
export class FilingSums {
  private readonly views = new Map<string, FilingSumsView | null>();

  add(batch: FlatPositions): void {
    for (const run of batch.runs) {
      // A filing seen again: its rows were not contiguous.
      this.views.set(
        run.accession,
        this.views.has(run.accession) ? null : { batch, start: run.start, count: run.count },
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
