/**
 * SEC inputs the guard tests write: a bare 13F information table in the layout of SEC's official
 * sample (../shared/realdata/sec_13f/SEC_official_sample_information_table.xml) and a Form ADV CSV
 * with the header of ../shared/realdata/sec_adv/sec_registered_advisers_2026-02.csv.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface Position {
  readonly cusip: string;
  readonly issuer: string;
  readonly value: number;
}

const NS = 'http://www.sec.gov/edgar/document/thirteenf/informationtable';

function infoTable(p: Position): string {
  return `\t<ns1:infoTable>
\t\t<ns1:nameOfIssuer>${p.issuer}</ns1:nameOfIssuer>
\t\t<ns1:titleOfClass>COM</ns1:titleOfClass>
\t\t<ns1:cusip>${p.cusip}</ns1:cusip>
\t\t<ns1:value>${p.value}</ns1:value>
\t\t<ns1:shrsOrPrnAmt>
\t\t\t<ns1:sshPrnamt>${p.value * 3}</ns1:sshPrnamt>
\t\t\t<ns1:sshPrnamtType>SH</ns1:sshPrnamtType>
\t\t</ns1:shrsOrPrnAmt>
\t\t<ns1:investmentDiscretion>SOLE</ns1:investmentDiscretion>
\t\t<ns1:votingAuthority>
\t\t\t<ns1:Sole>0</ns1:Sole>
\t\t\t<ns1:Shared>0</ns1:Shared>
\t\t\t<ns1:None>${p.value * 3}</ns1:None>
\t\t</ns1:votingAuthority>
\t</ns1:infoTable>`;
}

/** Writes `infotable.xml` into `dir`; returns its path as the one `--from` location. */
export function writeInfoTable(dir: string, positions: readonly Position[]): string[] {
  const path = join(dir, 'infotable.xml');
  const body = positions.map(infoTable).join('\n');
  writeFileSync(
    path,
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<ns1:informationTable xmlns:ns1="${NS}">\n${body}\n</ns1:informationTable>\n`,
  );
  return [path];
}

/** `n` positions, one per CUSIP (13F checks the form of a CUSIP, not its check digit). */
export const positions = (n: number): Position[] =>
  Array.from({ length: n }, (_, i) => ({
    cusip: `GRD${String(i).padStart(5, '0')}0`,
    issuer: `GUARD ISSUER ${i} &amp; CO`,
    value: 1000 + i,
  }));

/** The identity of the bare information table (it has no cover page). */
// biome-ignore format: flags
export const FILING_FLAGS = ['--accession', '0000999999-25-000001', '--cik', '999999', '--period', '2025-03-31',
  '--filed', '2025-05-12'];

export interface Adviser {
  readonly crd: string;
  readonly name: string;
}

// biome-ignore format: the file's header line
const ADV_HEADER = 'Primary Business Name,Organization CRD#,SEC Status Effective Date,Latest ADV Filing Date,SEC Current Status,Main Office City,Main Office State,Main Office Telephone Number,Website Address,Legal Name,2A(1),2A(2),5A,5C(1),5F(2)(a),5F(2)(b),5F(2)(c)';

/** Writes `ia020226.csv` into `dir`; returns its path as the one `--from` location. */
export function writeAdvisers(dir: string, advisers: readonly Adviser[]): string[] {
  const path = join(dir, 'ia020226.csv');
  const lines = advisers.map(
    (a) =>
      `"${a.name}",${a.crd},08/22/2000,06/26/2025,Approved,SAN RAMON,CA,925-866-2882,HTTPS://EXAMPLE.COM,"${a.name}",Y,N,30.0, 16,"   576,373,248.00","  1,689,142.00","   578,062,390.00"`,
  );
  writeFileSync(path, `${[ADV_HEADER, ...lines].join('\n')}\n`);
  return [path];
}

export const advisers = (n: number): Adviser[] =>
  Array.from({ length: n }, (_, i) => ({ crd: String(500_000 + i), name: `GUARD ADVISERS ${i}, LLC` }));
