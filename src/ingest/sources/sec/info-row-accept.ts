/**
 * Which information-table rows are stored: rows of a filing this load holds, not of a 13F-NT
 * notice, not a confidential-treatment placeholder, and with the fields a position needs. The
 * verdict carries the reason a row is skipped or rejected, so the load summary can count it.
 */
import type { InfoRowFields } from '../../../holdings/info-tables.js';
import type { InfoTableRow } from './types.js';

const PLACEHOLDER_CUSIP = '000000000';

export type RowVerdict = InfoRowFields | { skip: string } | { reject: string };

const NOT_IN_LOAD = { reject: 'INFOTABLE row of a filing not in SUBMISSION (or rejected)' };
const OF_NOTICE = { skip: 'row of a 13F-NT notice (notices carry no holdings)' };
const PLACEHOLDER = { skip: 'confidential-treatment placeholder row (CUSIP 000000000, value 0)' };
const EMPTY = {
  NAMEOFISSUER: { reject: 'empty NAMEOFISSUER' },
  SSHPRNAMT: { reject: 'empty SSHPRNAMT' },
  SSHPRNAMTTYPE: { reject: 'empty SSHPRNAMTTYPE' },
};

/**
 * Why a row is not stored, or null when it is. `formType` is the form of the row's filing in this
 * load, undefined when the load lacks it.
 */
export function infoRowRefusal(
  row: InfoTableRow,
  formType: string | undefined,
): { skip: string } | { reject: string } | null {
  if (formType === undefined) return NOT_IN_LOAD;
  if (formType.startsWith('13F-NT')) return OF_NOTICE;
  if (row.cusip === PLACEHOLDER_CUSIP && row.value === 0) return PLACEHOLDER;
  if (row.issuer === null) return EMPTY.NAMEOFISSUER;
  if (row.shares === null) return EMPTY.SSHPRNAMT;
  if (row.shareType === null) return EMPTY.SSHPRNAMTTYPE;
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
