/**
 * The CUSIPs of one quarter's derivation, numbered in the order first seen. The security totals
 * and the daily crowding tally by number, so a position costs one map lookup shared by both
 * instead of one in each (millions of positions a quarter).
 */
export class CusipNumbers {
  private readonly byCusip = new Map<string, number>();
  /** `cusips[n]` is CUSIP number n. */
  readonly cusips: string[] = [];

  /** The CUSIP's number, given it on first sight. */
  numberOf(cusip: string): number {
    let n = this.byCusip.get(cusip);
    if (n === undefined) {
      n = this.cusips.length;
      this.byCusip.set(cusip, n);
      this.cusips.push(cusip);
    }
    return n;
  }

  /** The CUSIP's number if it has one. */
  find(cusip: string): number | undefined {
    return this.byCusip.get(cusip);
  }
}
