/**
 * CUSIPs numbered in the order first seen, for columns indexed by number. A quarter's security
 * totals and daily crowding share one numbering, so a position costs one map lookup shared by both
 * instead of one in each (millions of positions a quarter); the changes pass numbers its holders.
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
