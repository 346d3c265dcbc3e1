/**
 * SEC's monthly "Registered Investment Advisers" CSV (inside `ia{MMDDYY}.zip` or bare). Columns are
 * read by header name, compared without spaces and case (`Organization CRD#` = `Organization CRD #`),
 * because the layout drifts between months (17 to 448 columns). Amounts come space-padded with
 * thousands separators (`"   576,373,248.00"`); AUM is USD.
 */

import { parse } from 'csv-parse';
import { FieldError } from '../../core/errors.js';

import { chunksOf } from './text-decoding.js';

import type { AdviserRecord, Rejection } from './types.js';
import { parseDecimalAmount, parseSecDate, textOrNull } from './values.js';

/** Header key: no whitespace, upper case. */
export function headerKey(name: string): string {
  return name.replace(/\s+/g, '').toUpperCase();
}

/** AdviserRecord field → accepted header keys, first match wins. */
const COLUMNS = {
  crd: ['ORGANIZATIONCRD#', 'CRD#', 'FIRMCRD#', 'CRDNUMBER'],
  secNumber: ['SEC#', 'SECNUMBER', 'SECFILENUMBER'],
  name: ['PRIMARYBUSINESSNAME', 'BUSINESSNAME'],
  legalName: ['LEGALNAME'],
  street1: ['MAINOFFICESTREETADDRESS1'],
  street2: ['MAINOFFICESTREETADDRESS2'],
  city: ['MAINOFFICECITY'],
  state: ['MAINOFFICESTATE'],
  country: ['MAINOFFICECOUNTRY'],
  postalCode: ['MAINOFFICEPOSTALCODE'],
  phone: ['MAINOFFICETELEPHONENUMBER'],
  website: ['WEBSITEADDRESS'],
  registrationStatus: ['SECCURRENTSTATUS'],
  latestFilingDate: ['LATESTADVFILINGDATE'],
  employees: ['5A'],
  clients: ['5C(1)'],
  discretionaryAum: ['5F(2)(A)'],
  nonDiscretionaryAum: ['5F(2)(B)'],
  aum: ['5F(2)(C)'],
} as const satisfies Partial<Record<keyof AdviserRecord, readonly string[]>>;

type Field = keyof typeof COLUMNS;

function columnIndexes(header: string[]): Record<Field, number> {
  const keys = header.map(headerKey);
  const indexes = {} as Record<Field, number>;
  for (const [field, candidates] of Object.entries(COLUMNS) as [Field, readonly string[]][]) {
    indexes[field] = keys.findIndex((key) => candidates.includes(key));
  }
  if (indexes.crd === -1) throw new Error(`no "Organization CRD#" column (header: ${header.join(', ')})`);
  if (indexes.name === -1 && indexes.legalName === -1) throw new Error('no "Primary Business Name" column');
  return indexes;
}

function wholeCount(raw: string | null): number | null {
  const value = parseDecimalAmount(raw);
  if (value === null) return null;
  if (!Number.isInteger(value) || value < 0) throw new FieldError(`not a count: ${JSON.stringify(raw)}`);
  return value;
}

/** Older form versions answered 5.C(1) with a bracket (`11-25`): no exact count, so unknown. */
function clientCount(raw: string | null, onSkip: (reason: string) => void): number | null {
  if (raw !== null && /^\d+\s*-\s*\d+$/.test(raw)) {
    onSkip('5C(1) client count given as a range (older form version): stored as unknown');
    return null;
  }
  return wholeCount(raw);
}

function adviserFrom(
  row: string[],
  at: Record<Field, number>,
  onSkip: (reason: string) => void,
): AdviserRecord {
  const get = (field: Field) => (at[field] === -1 ? null : textOrNull(row[at[field]]));
  const crdText = get('crd') ?? '';
  if (!/^\d+$/.test(crdText)) throw new FieldError(`invalid Organization CRD# ${JSON.stringify(crdText)}`);
  const name = get('name') ?? get('legalName');
  if (name === null) throw new FieldError('no business or legal name');
  return {
    crd: Number(crdText),
    secNumber: get('secNumber'),
    name,
    legalName: get('legalName'),
    street1: get('street1'),
    street2: get('street2'),
    city: get('city'),
    state: get('state')?.toUpperCase() ?? null,
    country: get('country'),
    postalCode: get('postalCode'),
    phone: get('phone'),
    website: get('website'),
    registrationStatus: get('registrationStatus'),
    latestFilingDate: parseSecDate(get('latestFilingDate')),
    employees: wholeCount(get('employees')),
    clients: clientCount(get('clients'), onSkip),
    aum: parseDecimalAmount(get('aum')),
    discretionaryAum: parseDecimalAmount(get('discretionaryAum')),
    nonDiscretionaryAum: parseDecimalAmount(get('nonDiscretionaryAum')),
  };
}

/** Streams advisers out of the decoded CSV text; bad rows are rejected with a reason. */
export async function* readAdviserCsv(
  text: string,
  rejections: Rejection[],
  onSkip: (reason: string) => void = () => {},
): AsyncGenerator<AdviserRecord> {
  const parser = parse({ bom: true, relax_column_count: true, skip_empty_lines: true });
  const feed = (async () => {
    for (const chunk of chunksOf(text)) {
      if (!parser.write(chunk)) await new Promise((resolve) => parser.once('drain', resolve));
    }
    parser.end();
  })();
  let at: Record<Field, number> | null = null;
  let line = 1;
  for await (const row of parser as AsyncIterable<string[]>) {
    if (at === null) {
      at = columnIndexes(row);
      continue;
    }
    line += 1;
    try {
      yield adviserFrom(row, at, onSkip);
    } catch (error) {
      rejections.push({ where: `record ${line}`, reason: (error as Error).message });
    }
  }
  await feed;
  if (at === null) throw new Error('the adviser file is empty');
}
