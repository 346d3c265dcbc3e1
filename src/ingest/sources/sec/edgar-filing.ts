/**
 * Assembles one 13F filing from whatever EDGAR files the operator has: a full `.txt`/`.nc`
 * submission, or a primary document and/or an information table as separate XML files. What the
 * files cannot say (accession number, filing date, CIK of a bare information table) comes from the
 * file name/URL or explicit overrides; nothing is guessed silently.
 */

import { looksLikeSubmission, splitSubmission, xmlKind } from './edgar-submission.js';
import { type PrimaryDoc, parseInfoTable, parsePrimaryDoc } from './edgar-xml.js';
import type { Filing13F, InfoTableRow, Rejection } from './types.js';
import { parseCik, parseSecDate } from './values.js';

export interface FilingInput {
  /** File path or URL: an accession number in it is used when the content has none. */
  name: string;
  text: string;
}

export interface FilingOverrides {
  accession?: string;
  cik?: string;
  period?: string;
  filingDate?: string;
  formType?: string;
}

export interface ParsedFiling {
  filing: Filing13F;
  rows: InfoTableRow[];
  /** Number of `<infoTable>` elements seen (valid + rejected); null when no table was given. */
  tableRows: number | null;
  rejections: Rejection[];
  notes: string[];
}

interface Parts {
  header: Partial<Record<'accession' | 'formType' | 'filingDate' | 'period' | 'cik', string | null>>;
  primary: string | null;
  infotable: string | null;
}

function collectParts(inputs: FilingInput[]): Parts {
  const parts: Parts = { header: {}, primary: null, infotable: null };
  const place = (xml: string, name: string) => {
    const kind = xmlKind(xml);
    if (kind === null) throw new Error(`${name}: neither a 13F primary document nor an information table`);
    if (parts[kind] !== null) throw new Error(`${name}: a second ${kind} document for the same filing`);
    parts[kind] = xml;
  };
  for (const input of inputs) {
    if (looksLikeSubmission(input.text)) {
      const submission = splitSubmission(input.text);
      parts.header = { ...submission };
      for (const document of submission.documents) if (document.xml) place(document.xml, input.name);
    } else {
      place(input.text, input.name);
    }
    parts.header.accession ??= accessionInName(input.name);
  }
  return parts;
}

/** `0000950123-24-001234`, or the 18-digit form used in EDGAR archive paths. */
export function accessionInName(name: string): string | null {
  const dashed = /(\d{10}-\d{2}-\d{6})/.exec(name);
  if (dashed) return dashed[1]!;
  const plain = /(?:^|[/_.-])(\d{18})(?:[/_.-]|$)/.exec(name);
  return plain ? `${plain[1]!.slice(0, 10)}-${plain[1]!.slice(10, 12)}-${plain[1]!.slice(12)}` : null;
}

function requireValue(value: string | null | undefined, what: string, flag: string): string {
  if (!value) throw new Error(`the filing does not say its ${what}; pass ${flag}`);
  return value;
}

function buildFiling(parts: Parts, primary: PrimaryDoc | null, overrides: FilingOverrides, notes: string[]) {
  const header = parts.header;
  const accession = requireValue(overrides.accession ?? header.accession, 'accession number', '--accession');
  if (!/^\d{10}-\d{2}-\d{6}$/.test(accession)) throw new Error(`invalid accession number ${accession}`);
  let filingDate = parseSecDate(overrides.filingDate ?? header.filingDate);
  if (!filingDate && primary?.signatureDate) {
    filingDate = primary.signatureDate;
    notes.push(`filing date taken from the signature date ${filingDate} (no submission header)`);
  }
  const base: PrimaryDoc = primary ?? emptyPrimary(parts, overrides);
  const formType = (overrides.formType ?? header.formType ?? base.formType).toUpperCase();
  const filing: Filing13F = {
    ...base,
    accession,
    filingDate: requireValue(filingDate, 'filing date', '--filed'),
    cik: overrides.cik ? parseCik(overrides.cik) : base.cik,
    period: parseSecDate(overrides.period) ?? base.period,
    formType,
    isAmendment: base.isAmendment || formType.endsWith('/A'),
  };
  delete (filing as Partial<PrimaryDoc>).signatureDate;
  return filing;
}

/** A bare information table: identity from the submission header or the overrides. */
function emptyPrimary(parts: Parts, overrides: FilingOverrides): PrimaryDoc {
  const header = parts.header;
  const period = parseSecDate(overrides.period ?? header.period);
  return {
    cik: parseCik(requireValue(overrides.cik ?? header.cik, 'CIK', '--cik')),
    formType: (overrides.formType ?? header.formType ?? '13F-HR').toUpperCase(),
    period: requireValue(period, 'period of report', '--period'),
    isAmendment: false,
    amendmentNo: null,
    amendmentType: null,
    managerName: null,
    street1: null,
    street2: null,
    city: null,
    stateOrCountry: null,
    zipCode: null,
    reportType: null,
    form13fFileNumber: null,
    crdNumber: null,
    secFileNumber: null,
    tableEntryTotal: null,
    tableValueTotal: null,
    isConfidentialOmitted: null,
    signatureDate: null,
  };
}

export async function parseFiling(
  inputs: FilingInput[],
  overrides: FilingOverrides = {},
): Promise<ParsedFiling> {
  const parts = collectParts(inputs);
  const notes: string[] = [];
  const primary = parts.primary === null ? null : await parsePrimaryDoc([parts.primary]);
  const filing = buildFiling(parts, primary, overrides, notes);
  if (!/^13F-(HR|NT)(\/A)?$/.test(filing.formType))
    throw new Error(`not a 13F form type: ${filing.formType}`);
  const rows: InfoTableRow[] = [];
  const rejections: Rejection[] = [];
  let tableRows: number | null = null;
  if (parts.infotable !== null) {
    tableRows = await parseInfoTable(
      [parts.infotable],
      filing.accession,
      (row) => rows.push(row),
      rejections,
    );
  } else if (filing.formType.startsWith('13F-HR') && (filing.tableEntryTotal ?? 0) > 0) {
    throw new Error(
      `the primary document lists ${filing.tableEntryTotal} holdings but no information table was given; ` +
        'pass the information table too (another --from)',
    );
  }
  return { filing, rows, tableRows, rejections, notes };
}
