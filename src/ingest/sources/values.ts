/**
 * Reading upstream fields strictly: a value that is present but unusable raises FieldError (the row
 * is rejected and the reason counted); a value that is absent or blank is null. Nothing becomes NaN,
 * "", "null" or 0 by accident.
 */
import { FieldError } from '../core/errors.js';

export type UpstreamRecord = Record<string, unknown>;

/** Upper-cases and trims the keys (CSV headers vary: `cert`, `Cert `, `CERT`). */
export function normalizeKeys(record: Record<string, unknown>): UpstreamRecord {
  const out: UpstreamRecord = {};
  for (const [key, value] of Object.entries(record)) out[key.trim().toUpperCase()] = value;
  return out;
}

function raw(record: UpstreamRecord, field: string): string | number | null {
  const value = record[field];
  if (value === undefined || value === null) return null;
  if (typeof value === 'number') return value;
  const text = String(value).trim();
  return text === '' ? null : text;
}

export function text(record: UpstreamRecord, field: string): string | null {
  const value = raw(record, field);
  return value === null ? null : String(value);
}

export function requiredText(record: UpstreamRecord, field: string): string {
  const value = text(record, field);
  if (value === null) throw new FieldError(`missing ${field}`);
  return value;
}

const NUMBER = /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;

export function number(record: UpstreamRecord, field: string): number | null {
  const value = raw(record, field);
  if (value === null) return null;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new FieldError(`invalid ${field} (not a finite number)`);
    return value;
  }
  const cleaned = value.replace(/,/g, '');
  if (!NUMBER.test(cleaned)) throw new FieldError(`invalid ${field} (not a number)`);
  return Number(cleaned);
}

export function integer(record: UpstreamRecord, field: string): number | null {
  const value = number(record, field);
  if (value !== null && !Number.isSafeInteger(value))
    throw new FieldError(`invalid ${field} (not an integer)`);
  return value;
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

function isoDate(year: number, month: number, day: number): string | null {
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day)
    return null;
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

function twoDigitYear(yy: number): number {
  const pivot = (new Date().getUTCFullYear() % 100) + 1;
  return yy < pivot ? 2000 + yy : 1900 + yy;
}

/**
 * Parses the date styles the upstreams use: `MM/DD/YYYY` and `M/D/YYYY` (BankFind institutions,
 * failures), `YYYYMMDD` (financials REPDTE, string or number), `YYYY-MM-DD` with or without a time
 * (history, FRED), `D-Mon-YY` (the failed-bank list). Returns undefined when the text is not a date.
 */
export function parseDate(value: string | number): string | undefined {
  const textValue = String(value).trim();
  let m = /^(\d{1,2})\/(\d{1,2})\/(\d{4})(?:\s.*)?$/.exec(textValue);
  if (m) return isoDate(Number(m[3]), Number(m[1]), Number(m[2])) ?? undefined;
  m = /^(\d{4})(\d{2})(\d{2})$/.exec(textValue);
  if (m) return isoDate(Number(m[1]), Number(m[2]), Number(m[3])) ?? undefined;
  m = /^(\d{4})-(\d{2})-(\d{2})(?:[T ][\d:.]+(?:Z|[+-]\d{2}(?::?\d{2})?)?)?$/.exec(textValue);
  if (m) return isoDate(Number(m[1]), Number(m[2]), Number(m[3])) ?? undefined;
  m = /^(\d{1,2})-([A-Za-z]{3})-(\d{2}|\d{4})$/.exec(textValue);
  if (m) {
    const month = MONTHS.indexOf(m[2]!.toLowerCase()) + 1;
    const year = m[3]!.length === 2 ? twoDigitYear(Number(m[3])) : Number(m[3]);
    return month > 0 ? (isoDate(year, month, Number(m[1])) ?? undefined) : undefined;
  }
  return undefined;
}

/** A date field; BankFind's `12/31/9999` "no date" sentinel is null. */
export function date(record: UpstreamRecord, field: string): string | null {
  const value = raw(record, field);
  if (value === null) return null;
  const parsed = parseDate(value);
  if (parsed === undefined) throw new FieldError(`invalid ${field} (not a date)`);
  return parsed.startsWith('9999-') ? null : parsed;
}

export function requiredDate(record: UpstreamRecord, field: string): string {
  const value = date(record, field);
  if (value === null) throw new FieldError(`missing ${field}`);
  return value;
}

/** The first of `fields` that is present (upstream exports name the same value differently). */
export function first<T>(
  record: UpstreamRecord,
  fields: readonly string[],
  read: (r: UpstreamRecord, f: string) => T | null,
): T | null {
  for (const field of fields) {
    const value = read(record, field);
    if (value !== null) return value;
  }
  return null;
}

const STATE_CODES: Record<string, string> = {
  alabama: 'AL',
  alaska: 'AK',
  arizona: 'AZ',
  arkansas: 'AR',
  california: 'CA',
  colorado: 'CO',
  connecticut: 'CT',
  delaware: 'DE',
  'district of columbia': 'DC',
  florida: 'FL',
  georgia: 'GA',
  hawaii: 'HI',
  idaho: 'ID',
  illinois: 'IL',
  indiana: 'IN',
  iowa: 'IA',
  kansas: 'KS',
  kentucky: 'KY',
  louisiana: 'LA',
  maine: 'ME',
  maryland: 'MD',
  massachusetts: 'MA',
  michigan: 'MI',
  minnesota: 'MN',
  mississippi: 'MS',
  missouri: 'MO',
  montana: 'MT',
  nebraska: 'NE',
  nevada: 'NV',
  'new hampshire': 'NH',
  'new jersey': 'NJ',
  'new mexico': 'NM',
  'new york': 'NY',
  'north carolina': 'NC',
  'north dakota': 'ND',
  ohio: 'OH',
  oklahoma: 'OK',
  oregon: 'OR',
  pennsylvania: 'PA',
  'rhode island': 'RI',
  'south carolina': 'SC',
  'south dakota': 'SD',
  tennessee: 'TN',
  texas: 'TX',
  utah: 'UT',
  vermont: 'VT',
  virginia: 'VA',
  washington: 'WA',
  'west virginia': 'WV',
  wisconsin: 'WI',
  wyoming: 'WY',
  'puerto rico': 'PR',
  guam: 'GU',
  'american samoa': 'AS',
  'northern mariana islands': 'MP',
  'virgin islands': 'VI',
  'u.s. virgin islands': 'VI',
  'virgin islands of the u.s.': 'VI',
  'federated states of micronesia': 'FM',
  micronesia: 'FM',
  'marshall islands': 'MH',
  palau: 'PW',
};

/** A 2-letter code field, or the full state name (`STNAME`: "District Of Columbia", "TEXAS"). */
export function stateCode(record: UpstreamRecord, codeField: string, nameField: string): string | null {
  const code = text(record, codeField);
  if (code !== null) {
    if (!/^[A-Za-z]{2}$/.test(code)) throw new FieldError(`invalid ${codeField} (not a 2-letter code)`);
    return code.toUpperCase();
  }
  const name = text(record, nameField);
  if (name === null) return null;
  const mapped = STATE_CODES[name.toLowerCase().replace(/\s+/g, ' ')];
  if (!mapped) throw new FieldError(`invalid ${nameField} (unknown state name)`);
  return mapped;
}
