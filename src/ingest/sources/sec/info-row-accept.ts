/**
 * Which information-table rows are stored: rows of a filing this load holds, not of a 13F-NT
 * notice, not a confidential-treatment placeholder, and with the fields a position needs. The
 * verdict carries the reason a row is skipped or rejected, so the load summary can count it.
 */
import type { InfoRowFields } from '../../../holdings/info-tables.js';
import type { InfoTableRow } from './types.js';

const PLACEHOLDER_CUSIP = '000000000';

export type RowVerdict = InfoRowFields | { skip: string } | { reject: string };

/** `formType` is the form of the row's filing in this load, undefined when the load lacks it. */
export function acceptInfoRow(row: InfoTableRow, formType: string | undefined): RowVerdict {
  if (formType === undefined) return { reject: 'INFOTABLE row of a filing not in SUBMISSION (or rejected)' };
  if (formType.startsWith('13F-NT')) return { skip: 'row of a 13F-NT notice (notices carry no holdings)' };
  if (row.cusip === PLACEHOLDER_CUSIP && row.value === 0) {
    return { skip: 'confidential-treatment placeholder row (CUSIP 000000000, value 0)' };
  }
  if (row.issuer === null || row.shares === null || row.shareType === null) {
    const missing =
      row.issuer === null ? 'NAMEOFISSUER' : row.shares === null ? 'SSHPRNAMT' : 'SSHPRNAMTTYPE';
    return { reject: `empty ${missing}` };
  }
  // biome-ignore format: one value per field of INFO_ROW_FIELDS
  return [row.cusip, row.issuer, row.titleOfClass, row.value, row.shares, row.shareType, row.putCall,
    row.discretion, row.votingSole, row.votingShared, row.votingNone];
}
