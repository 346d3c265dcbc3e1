/**
 * Which information-table rows are stored: rows of a filing this load holds, not of a 13F-NT
 * notice, not a confidential-treatment placeholder, and with the fields a position needs. The
 * verdict carries the reason a row is skipped or rejected, so the load summary can count it.
 */
import type { InfoRowFields } from './holdings/info-row-codec.js';
import type { InfoTableRow, PlainInfoRow } from './types.js';

export const PLACEHOLDER_CUSIP = '000000000';

type Refusal = Readonly<{ skip: string } | { reject: string }>;

export type RowVerdict = InfoRowFields | Refusal;

// Shared verdicts: refusing a row allocates nothing.
const NOT_IN_LOAD: Refusal = Object.freeze({
  reject: 'INFOTABLE row of a filing not in SUBMISSION (or rejected)',
});
const OF_NOTICE: Refusal = Object.freeze({ skip: 'row of a 13F-NT notice (notices carry no holdings)' });
const PLACEHOLDER: Refusal = Object.freeze({
  skip: 'confidential-treatment placeholder row (CUSIP 000000000, value 0)',
});
const EMPTY_ISSUER: Refusal = Object.freeze({ reject: 'empty NAMEOFISSUER' });
const EMPTY_SHARES: Refusal = Object.freeze({ reject: 'empty SSHPRNAMT' });
const EMPTY_SHARE_TYPE: Refusal = Object.freeze({ reject: 'empty SSHPRNAMTTYPE' });

/**
 * Why a row is not stored, or null when it is. `formType` is the form of the row's filing in this
 * load, undefined when the load lacks it.
 */
export function infoRowRefusal(row: InfoTableRow, formType: string | undefined): Refusal | null {
  return plainRowRefusal(row, row.cusip === PLACEHOLDER_CUSIP, row.issuer === null, formType);
}

/** infoRowRefusal for a row whose CUSIP and issuer are known only as the placeholder or not, empty or not. */
export function plainRowRefusal(
  row: PlainInfoRow,
  placeholderCusip: boolean,
  emptyIssuer: boolean,
  formType: string | undefined,
): Refusal | null {
  if (formType === undefined) return NOT_IN_LOAD;
  if (formType.startsWith('13F-NT')) return OF_NOTICE;
  if (placeholderCusip && row.value === 0) return PLACEHOLDER;
  if (emptyIssuer) return EMPTY_ISSUER;
  if (row.shares === null) return EMPTY_SHARES;
  if (row.shareType === null) return EMPTY_SHARE_TYPE;
  return null;
}

/** The stored fields of a row, or why it is not stored (infoRowRefusal). */
export function acceptInfoRow(row: InfoTableRow, formType: string | undefined): RowVerdict {
  const refusal = infoRowRefusal(row, formType);
  if (refusal) return refusal;
  // biome-ignore format: one value per field of INFO_ROW_FIELDS
  return [row.cusip, row.issuer as string, row.titleOfClass, row.value, row.shares as number,
    row.shareType as string, row.putCall, row.discretion, row.votingSole, row.votingShared, row.votingNone];
}
