/**
 * What the SEC parsers produce, whatever the upstream format (data set TSV, EDGAR XML, .txt/.nc
 * submission). Values are kept exactly as filed; unit normalisation is the derivation's job.
 */

/** One 13F submission: SUBMISSION + COVERPAGE + SUMMARYPAGE of a data set, or a primary document. */
export interface Filing13F {
  /** Dashed form, e.g. `0000950123-24-001234`. */
  accession: string;
  cik: number;
  /** `13F-HR`, `13F-HR/A`, `13F-NT` or `13F-NT/A`. */
  formType: string;
  /** `YYYY-MM-DD`; decides the VALUE unit (before 2023-01-03 thousands, from then dollars). */
  filingDate: string;
  /** Period of report, `YYYY-MM-DD` (a quarter end). */
  period: string;
  isAmendment: boolean;
  amendmentNo: number | null;
  /** `RESTATEMENT`, `NEW HOLDINGS` or null. */
  amendmentType: string | null;
  managerName: string | null;
  street1: string | null;
  street2: string | null;
  city: string | null;
  /** State or country code as filed (`NY`, `X0`, …). */
  stateOrCountry: string | null;
  zipCode: string | null;
  /** `13F HOLDINGS REPORT`, `13F NOTICE`, `13F COMBINATION REPORT`. */
  reportType: string | null;
  form13fFileNumber: string | null;
  crdNumber: string | null;
  secFileNumber: string | null;
  /** Summary page, as filed (same unit as the rows' VALUE); null when the filing has none. */
  tableEntryTotal: number | null;
  tableValueTotal: number | null;
  isConfidentialOmitted: boolean | null;
}

/** One INFOTABLE row / `<infoTable>` element. */
export interface InfoTableRow {
  accession: string;
  cusip: string;
  issuer: string | null;
  titleOfClass: string | null;
  figi: string | null;
  /** As filed: thousands of USD before 2023-01-03, whole USD from then. */
  value: number;
  /** Shares or principal amount. */
  shares: number | null;
  /** `SH` or `PRN`. */
  shareType: string | null;
  /** `PUT`, `CALL` or null. */
  putCall: string | null;
  /** `SOLE`, `DFND` or `OTR`. */
  discretion: string | null;
  otherManager: string | null;
  votingSole: number | null;
  votingShared: number | null;
  votingNone: number | null;
}

/** A row's fields but its CUSIP and free texts (which a byte-level reader leaves in the line). */
export type PlainInfoRow = Omit<InfoTableRow, 'cusip' | 'issuer' | 'titleOfClass' | 'figi' | 'otherManager'>;

/** One registered adviser (monthly ADV file or IAPD feed). AUM in USD. */
export interface AdviserRecord {
  crd: number;
  secNumber: string | null;
  name: string;
  legalName: string | null;
  street1: string | null;
  street2: string | null;
  city: string | null;
  state: string | null;
  country: string | null;
  postalCode: string | null;
  phone: string | null;
  website: string | null;
  registrationStatus: string | null;
  latestFilingDate: string | null;
  employees: number | null;
  clients: number | null;
  /** Regulatory AUM, USD: 5.F(2)(c) total, (a) discretionary, (b) non-discretionary. */
  aum: number | null;
  discretionaryAum: number | null;
  nonDiscretionaryAum: number | null;
}

/** A row of the Official List of Section 13(f) Securities. */
export interface OfficialListEntry {
  cusip: string;
  issuer: string;
  titleOfClass: string | null;
  /** `A` added, `D` deleted this quarter, else null. */
  status: string | null;
}

/** A row-level problem: the row is skipped and counted, never stored half-parsed. */
export interface Rejection {
  where: string;
  reason: string;
}
