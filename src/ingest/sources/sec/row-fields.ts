/**
 * The accepted rows of one parsed INFOTABLE batch, as the parsing worker hands them to the loading
 * thread (infotable-parse.ts): columns of transferable typed arrays, row i at index i, its
 * records' rows back to back.
 */
export interface RowFields {
  /** 9 ASCII bytes a row (normalised CUSIP). */
  cusips: Uint8Array;
  /** Share type × put/call (filing-sums.ts codeOf). */
  codes: Uint8Array;
  /** VALUE and SSHPRNAMT as filed. */
  values: Float64Array;
  shares: Float64Array;
  /** Voting authority sole, shared, none: three a row, NaN for null. */
  voting: Float64Array;
  /** Issuer, class and investment discretion a row, as TextColumn writes them: UTF-8 back to back. */
  texts: Uint8Array;
  /** Each of those texts' length in bytes, −1 for null. */
  textLengths: Int32Array;
}
