/**
 * Writes Form 13F data set ZIPs in SEC's exact layout (tab-separated members with SEC's header
 * names, `DD-MON-YYYY` dates, dashed accession numbers), for tests and the ingest benchmark. Rows
 * are streamed from iterables, so a real-scale INFOTABLE never sits in memory.
 */
import { createWriteStream } from 'node:fs';
import { Readable } from 'node:stream';
import { finished } from 'node:stream/promises';
import yazl from 'yazl';

export const COLUMNS = {
  SUBMISSION: ['ACCESSION_NUMBER', 'FILING_DATE', 'SUBMISSIONTYPE', 'CIK', 'PERIODOFREPORT'],
  // biome-ignore format: SEC's column order
  COVERPAGE: ['ACCESSION_NUMBER', 'REPORTCALENDARORQUARTER', 'ISAMENDMENT', 'AMENDMENTNO', 'AMENDMENTTYPE',
    'CONFDENIEDEXPIRED', 'DATEDENIEDEXPIRED', 'DATEREPORTED', 'REASONFORNONCONFIDENTIALITY', 'FILINGMANAGER_NAME',
    'FILINGMANAGER_STREET1', 'FILINGMANAGER_STREET2', 'FILINGMANAGER_CITY', 'FILINGMANAGER_STATEORCOUNTRY',
    'FILINGMANAGER_ZIPCODE', 'REPORTTYPE', 'FORM13FFILENUMBER', 'CRDNUMBER', 'SECFILENUMBER',
    'PROVIDEINFOFORINSTRUCTION5', 'ADDITIONALINFORMATION'],
  // biome-ignore format: SEC's column order
  SUMMARYPAGE: ['ACCESSION_NUMBER', 'OTHERINCLUDEDMANAGERSCOUNT', 'TABLEENTRYTOTAL', 'TABLEVALUETOTAL',
    'ISCONFIDENTIALOMITTED'],
  // biome-ignore format: SEC's column order
  INFOTABLE: ['ACCESSION_NUMBER', 'INFOTABLE_SK', 'NAMEOFISSUER', 'TITLEOFCLASS', 'CUSIP', 'FIGI', 'VALUE',
    'SSHPRNAMT', 'SSHPRNAMTTYPE', 'PUTCALL', 'INVESTMENTDISCRETION', 'OTHERMANAGER', 'VOTING_AUTH_SOLE',
    'VOTING_AUTH_SHARED', 'VOTING_AUTH_NONE'],
} as const;

export type MemberName = keyof typeof COLUMNS;

export interface Member {
  name: string;
  header: readonly string[];
  rows: Iterable<readonly string[]> | AsyncIterable<readonly string[]>;
}

async function* tsvLines(member: Member): AsyncGenerator<Buffer> {
  yield Buffer.from(`${member.header.join('\t')}\n`);
  let lines: string[] = [];
  for await (const row of member.rows as AsyncIterable<readonly string[]>) {
    lines.push(row.join('\t'));
    if (lines.length >= 2000) {
      yield Buffer.from(`${lines.join('\n')}\n`);
      lines = [];
    }
  }
  if (lines.length > 0) yield Buffer.from(`${lines.join('\n')}\n`);
}

/** Writes the ZIP; `folder` nests the members (some SEC ZIPs do). */
export async function writeDatasetZip(
  path: string,
  members: readonly Member[],
  options: { folder?: string; compress?: boolean } = {},
): Promise<void> {
  const zip = new yazl.ZipFile();
  const out = createWriteStream(path);
  zip.outputStream.pipe(out);
  for (const member of members) {
    const name = options.folder ? `${options.folder}/${member.name}` : member.name;
    zip.addReadStream(Readable.from(tsvLines(member)), name, { compress: options.compress ?? true });
  }
  zip.end();
  await finished(out);
}

const MONTHS = 'JAN FEB MAR APR MAY JUN JUL AUG SEP OCT NOV DEC'.split(' ');

/** `2023-12-31` → `31-DEC-2023`, the data sets' date format. */
export function secDate(iso: string): string {
  return `${iso.slice(8, 10)}-${MONTHS[Number(iso.slice(5, 7)) - 1]}-${iso.slice(0, 4)}`;
}

/** A filing as a test or the benchmark describes it; written into the four members. */
export interface DatasetFiling {
  accession: string;
  /** As it should appear in the file (leading zeros or not). */
  cik: string;
  formType: string;
  filingDate: string;
  period: string;
  amendmentType?: string;
  amendmentNo?: number;
  managerName: string;
  city?: string;
  stateOrCountry?: string;
  /** Omitted → no SUMMARYPAGE row (as for most 13F-NT). */
  summary?: { entryTotal: number; valueTotal: number; confidentialOmitted?: boolean };
  rows: readonly DatasetRow[];
}

export interface DatasetRow {
  cusip: string;
  issuer: string;
  titleOfClass?: string;
  figi?: string;
  value: number | string;
  shares: number | string;
  shareType?: string;
  putCall?: string;
  discretion?: string;
}

export function submissionRow(f: DatasetFiling): string[] {
  return [f.accession, secDate(f.filingDate), f.formType, f.cik, secDate(f.period)];
}

export function coverRow(f: DatasetFiling): string[] {
  const amendment = f.formType.endsWith('/A');
  // biome-ignore format: one value per SEC column
  return [f.accession, secDate(f.period), amendment ? 'Y' : 'N', amendment ? String(f.amendmentNo ?? 1) : '',
    f.amendmentType ?? '', '', '', '', '', f.managerName, '1 MAIN ST', '', f.city ?? 'OMAHA',
    f.stateOrCountry ?? 'NE', '68131', f.formType.startsWith('13F-NT') ? '13F NOTICE' : '13F HOLDINGS REPORT',
    '028-00001', '', '', 'N', ''];
}

export function summaryRow(f: DatasetFiling): string[] | null {
  if (!f.summary) return null;
  // biome-ignore format: one value per SEC column
  return [f.accession, '0', String(f.summary.entryTotal), String(f.summary.valueTotal),
    f.summary.confidentialOmitted ? 'Y' : 'N'];
}

export function infoRow(accession: string, row: DatasetRow, sk: number, withFigi: boolean): string[] {
  // biome-ignore format: one value per SEC column
  const values = [accession, String(sk), row.issuer, row.titleOfClass ?? 'COM', row.cusip, row.figi ?? '',
    String(row.value), String(row.shares), row.shareType ?? 'SH', row.putCall ?? '', row.discretion ?? 'SOLE',
    '', String(row.shares), '0', '0'];
  if (!withFigi) values.splice(5, 1);
  return values;
}

/** Writes a small data set from filing descriptions (tests). `figi: false` mimics pre-2023 sets. */
export async function writeFilingsZip(
  path: string,
  filings: readonly DatasetFiling[],
  options: { folder?: string; figi?: boolean; compress?: boolean } = {},
): Promise<void> {
  const withFigi = options.figi ?? true;
  let sk = 0;
  const infoRows = filings.flatMap((f) => f.rows.map((row) => infoRow(f.accession, row, ++sk, withFigi)));
  await writeDatasetZip(
    path,
    [
      { name: 'SUBMISSION.tsv', header: COLUMNS.SUBMISSION, rows: filings.map(submissionRow) },
      { name: 'COVERPAGE.tsv', header: COLUMNS.COVERPAGE, rows: filings.map(coverRow) },
      {
        name: 'SUMMARYPAGE.tsv',
        header: COLUMNS.SUMMARYPAGE,
        rows: filings.map(summaryRow).filter((row): row is string[] => row !== null),
      },
      {
        name: 'INFOTABLE.tsv',
        header: withFigi ? COLUMNS.INFOTABLE : COLUMNS.INFOTABLE.filter((c) => c !== 'FIGI'),
        rows: infoRows,
      },
      { name: 'FORM13F_metadata.json', header: ['{}'], rows: [] },
    ],
    options,
  );
}
