/**
 * EDGAR 13F XML documents: the primary document (`edgarSubmission`, cover page + summary page) and
 * the information table (`informationTable/infoTable[]`). Elements are matched by local name, so any
 * namespace prefix works. The information table is streamed row by row.
 */
import { normaliseInfoRow, type RawInfoRow } from './dataset-records.js';
import type { Filing13F, InfoTableRow, Rejection } from './types.js';
import { parseCik, parseFlag, parseSecDate, parseWholeNumber, textOrNull } from './values.js';
import { walkXml } from './xml-walk.js';

/** What a primary document says; accession and filing date come from the submission around it. */
export type PrimaryDoc = Omit<Filing13F, 'accession' | 'filingDate'> & { signatureDate: string | null };

/** Field → path suffix (local names) inside `edgarSubmission`. */
const PRIMARY_FIELDS: Record<string, string> = {
  submissionType: 'headerData/submissionType',
  cik: 'filerInfo/filer/credentials/cik',
  periodOfReport: 'filerInfo/periodOfReport',
  reportCalendarOrQuarter: 'coverPage/reportCalendarOrQuarter',
  isAmendment: 'coverPage/isAmendment',
  amendmentNo: 'coverPage/amendmentNo',
  amendmentType: 'amendmentInfo/amendmentType',
  managerName: 'coverPage/filingManager/name',
  street1: 'filingManager/address/street1',
  street2: 'filingManager/address/street2',
  city: 'filingManager/address/city',
  stateOrCountry: 'filingManager/address/stateOrCountry',
  zipCode: 'filingManager/address/zipCode',
  reportType: 'coverPage/reportType',
  form13fFileNumber: 'coverPage/form13FFileNumber',
  crdNumber: 'coverPage/crdNumber',
  secFileNumber: 'coverPage/secFileNumber',
  tableEntryTotal: 'summaryPage/tableEntryTotal',
  tableValueTotal: 'summaryPage/tableValueTotal',
  isConfidentialOmitted: 'summaryPage/isConfidentialOmitted',
  signatureDate: 'signatureBlock/signatureDate',
};

function endsWithPath(path: readonly string[], suffix: string[]): boolean {
  if (path.length < suffix.length) return false;
  const offset = path.length - suffix.length;
  return suffix.every((part, i) => path[offset + i] === part);
}

export async function parsePrimaryDoc(chunks: AsyncIterable<string> | Iterable<string>): Promise<PrimaryDoc> {
  const suffixes = Object.entries(PRIMARY_FIELDS).map(
    ([field, suffix]) => [field, suffix.split('/')] as const,
  );
  const found: Record<string, string> = {};
  let root: string | null = null;
  await walkXml(chunks, {
    open(path) {
      root ??= path[0] ?? null;
    },
    close(path, text) {
      for (const [field, suffix] of suffixes) {
        if (found[field] === undefined && endsWithPath(path, suffix)) found[field] = text;
      }
    },
  });
  if (root !== 'edgarSubmission') throw new Error(`not a 13F primary document (root <${root}>)`);
  const period = parseSecDate(found.periodOfReport) ?? parseSecDate(found.reportCalendarOrQuarter);
  if (!period) throw new Error('primary document has no periodOfReport');
  const formType = (found.submissionType ?? '').trim().toUpperCase();
  if (!/^13F-(HR|NT)(\/A)?$/.test(formType)) throw new Error(`not a 13F submission type: ${formType}`);
  return {
    cik: parseCik(found.cik),
    formType,
    period,
    isAmendment: parseFlag(found.isAmendment) ?? formType.endsWith('/A'),
    amendmentNo: parseWholeNumber(found.amendmentNo),
    amendmentType: textOrNull(found.amendmentType)?.toUpperCase() ?? null,
    managerName: textOrNull(found.managerName),
    street1: textOrNull(found.street1),
    street2: textOrNull(found.street2),
    city: textOrNull(found.city),
    stateOrCountry: textOrNull(found.stateOrCountry)?.toUpperCase() ?? null,
    zipCode: textOrNull(found.zipCode),
    reportType: textOrNull(found.reportType)?.toUpperCase() ?? null,
    form13fFileNumber: textOrNull(found.form13fFileNumber),
    crdNumber: textOrNull(found.crdNumber),
    secFileNumber: textOrNull(found.secFileNumber),
    tableEntryTotal: parseWholeNumber(found.tableEntryTotal),
    tableValueTotal: parseWholeNumber(found.tableValueTotal),
    isConfidentialOmitted: parseFlag(found.isConfidentialOmitted),
    signatureDate: parseSecDate(found.signatureDate),
  };
}

type RawFields = Omit<RawInfoRow, 'accession'>;

/** infoTable child path (below `infoTable`) → InfoTableRow field. */
const INFO_FIELDS: Record<string, keyof InfoTableRow> = {
  nameOfIssuer: 'issuer',
  titleOfClass: 'titleOfClass',
  cusip: 'cusip',
  figi: 'figi',
  value: 'value',
  'shrsOrPrnAmt/sshPrnamt': 'shares',
  'shrsOrPrnAmt/sshPrnamtType': 'shareType',
  putCall: 'putCall',
  investmentDiscretion: 'discretion',
  otherManager: 'otherManager',
  'votingAuthority/Sole': 'votingSole',
  'votingAuthority/Shared': 'votingShared',
  'votingAuthority/None': 'votingNone',
};

/**
 * Parses an information table, calling `onRow` for every valid row; invalid rows are rejected
 * with a reason. Returns the number of `<infoTable>` elements seen.
 */
export async function parseInfoTable(
  chunks: AsyncIterable<string> | Iterable<string>,
  accession: string,
  onRow: (row: InfoTableRow) => void,
  rejections: Rejection[],
): Promise<number> {
  let current: Record<string, string> | null = null;
  let depth = -1;
  let root: string | null = null;
  let seen = 0;
  await walkXml(chunks, {
    open(path) {
      root ??= path[0] ?? null;
      if (path[path.length - 1] === 'infoTable') {
        current = {};
        depth = path.length;
      }
    },
    close(path, text) {
      if (current === null) return;
      if (path.length === depth) {
        seen += 1;
        try {
          onRow(normaliseInfoRow({ ...(current as RawFields), accession }));
        } catch (error) {
          rejections.push({ where: `infoTable #${seen}`, reason: (error as Error).message });
        }
        current = null;
        return;
      }
      const field = INFO_FIELDS[path.slice(depth).join('/')];
      if (field) current[field] = text;
    },
  });
  if (root !== 'informationTable') throw new Error(`not a 13F information table (root <${root}>)`);
  return seen;
}
