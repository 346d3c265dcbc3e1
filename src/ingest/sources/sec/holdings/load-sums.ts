/**
 * What a 13F load computes while it reads, for the derivation (src/ingest/sources/sec/holdings/derive): each filing's
 * positions summed as its rows arrive (filing-sums.ts), and per quarter the names filed for each CUSIP. A filing's rows must arrive together: startFiling
 * before each of its records, then add each row to the run it returns.
 */

import { codeOf } from '../../../../holdings/portfolio-pack.js';
import type { RowFields } from '../row-fields.js';
import { CusipNumbers } from './derive/cusip-numbers.js';
import type { LoadedSums } from './derive/index.js';
import { dollarScale } from './derive/positions.js';
import { UnknownSecurities } from './derive/securities.js';
import { FilingPositions } from './filing-positions.js';
import { FilingSums, FilingSumsBuilder } from './filing-sums.js';

/** Positions summed before they are handed over together (one set of flat arrays). */
const SUMS_PER_BATCH = 50_000;

/** The filing being summed. */
class FilingRun {
  private readonly scale: number;

  constructor(
    readonly accession: string,
    filingDate: string,
    private readonly numbers: CusipNumbers,
    readonly positions: FilingPositions,
    private readonly noted: UnknownSecurities,
  ) {
    this.scale = dollarScale(filingDate);
  }

  /** One row: normalised CUSIP, share type and put/call, VALUE as filed. */
  add(
    cusip: string,
    shareType: string,
    putCall: string | null,
    value: number,
    shares: number,
    issuer: string,
    title: string | null,
  ) {
    const n = this.numbers.numberOf(cusip);
    this.positions.add(n, codeOf(shareType, putCall), value * this.scale, shares);
    this.noted.noteNumber(n, issuer, title);
  }

  /** add for row `i` of a parsed batch (infotable-parse.ts), its texts from `textAt` in the batch's. */
  addParsed(fields: RowFields, i: number, textAt: number) {
    const n = this.numbers.numberAt(fields.cusips, 9 * i);
    const value = fields.values[i] as number;
    this.positions.add(n, fields.codes[i] as number, value * this.scale, fields.shares[i] as number);
    // biome-ignore format: one call
    this.noted.noteNumberBytes(n, fields.texts, textAt, fields.textLengths[3 * i] as number,
      fields.textLengths[3 * i + 1] as number);
  }
}

export class LoadSums {
  private readonly sums = new FilingSums();
  private readonly summing = new FilingSumsBuilder();
  /** The load's CUSIPs, numbered for the filing being summed. */
  private readonly numbers = new CusipNumbers();
  private readonly positions = new FilingPositions();
  /** Per quarter, the names filed for each CUSIP in every row summed. */
  private readonly names = new Map<string, UnknownSecurities>();
  /** Filings whose rows' names are in `names`. */
  private readonly named = new Set<string>();
  private run: FilingRun | null = null;

  /** What deriveHoldings takes (`loaded`). */
  get loaded(): LoadedSums {
    return { sums: this.sums, names: this.names, named: this.named };
  }

  /** The filing the next rows belong to (the same one again for its next record). */
  startFiling(accession: string, filingDate: string, quarter: string): FilingRun {
    if (this.run?.accession === accession) return this.run;
    this.closeFiling();
    let noted = this.names.get(quarter);
    if (!noted) {
      noted = new UnknownSecurities(new Map(), this.numbers);
      this.names.set(quarter, noted);
    }
    this.run = new FilingRun(accession, filingDate, this.numbers, this.positions, noted);
    return this.run;
  }

  /** Hands over what has been summed once there is enough of it. */
  flushIfFull(): void {
    if (this.summing.size >= SUMS_PER_BATCH) this.flush();
  }

  /** Call after a data set's last row. */
  endOfRows(): void {
    this.closeFiling();
    this.flush();
  }

  /** A filing whose rows (also) arrive another way is derived from its raw rows. */
  forget(accession: string): void {
    this.sums.forget(accession);
  }

  private closeFiling(): void {
    const run = this.run;
    if (!run) return;
    this.run = null;
    this.summing.addFiling(run.accession, this.positions, this.numbers);
    this.named.add(run.accession);
  }

  private flush(): void {
    this.sums.add(this.summing.take());
  }
}
