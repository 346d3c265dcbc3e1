/**
 * Field parsers shared by every SEC format. Each returns null for an empty field and throws a
 * FieldError for a malformed one, so a bad row is rejected with a reason instead of being stored
 * as a guess.
 */
import { FieldError } from '../../core/errors.js';

const MONTHS: Record<string, number> = {
  JAN: 1,
  FEB: 2,
  MAR: 3,
  APR: 4,
  MAY: 5,
  JUN: 6,
  JUL: 7,
  AUG: 8,
  SEP: 9,
  OCT: 10,
  NOV: 11,
  DEC: 12,
};

function isoDate(year: number, month: number, day: number, raw: string): string {
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) {
    throw new FieldError(`not a calendar date: ${JSON.stringify(raw)}`);
  }
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/**
 * SEC dates in every spelling they come in: `31-DEC-2023` (data sets), `12-31-2023` and
 * `12/31/2023` (primary documents, ADV files), `20231231` (SGML headers), `2023-12-31` (IAPD feed).
 * Returns `YYYY-MM-DD`.
 */
export function parseSecDate(raw: string | undefined | null): string | null {
  const text = raw?.trim() ?? '';
  if (text === '') return null;
  let match = /^(\d{1,2})-([A-Za-z]{3})-(\d{4})$/.exec(text);
  if (match) {
    const month = MONTHS[match[2]!.toUpperCase()];
    if (month === undefined) throw new FieldError(`unknown month in ${JSON.stringify(text)}`);
    return isoDate(Number(match[3]), month, Number(match[1]), text);
  }
  match = /^(\d{1,2})[-/](\d{1,2})[-/](\d{4})$/.exec(text);
  if (match) return isoDate(Number(match[3]), Number(match[1]), Number(match[2]), text);
  match = /^(\d{4})-?(\d{2})-?(\d{2})(?:[T ].*)?$/.exec(text);
  if (match) return isoDate(Number(match[1]), Number(match[2]), Number(match[3]), text);
  throw new FieldError(`unrecognised date ${JSON.stringify(text)}`);
}

/**
 * Whole numbers as filed: values reach 1e11 and more, so they must stay exact (a JS number is exact
 * up to 2^53). Thousands separators and padding are tolerated; a fractional part is rounded (some
 * XML filings write `100.00` shares).
 */
export function parseWholeNumber(raw: string | undefined | null): number | null {
  // Fast path: up to 15 plain digits (exact in a double), as nearly every data set value is.
  if (raw !== undefined && raw !== null && raw.length > 0 && raw.length < 16) {
    let value = 0;
    let i = 0;
    for (; i < raw.length; i++) {
      const digit = raw.charCodeAt(i) - 48;
      if (digit < 0 || digit > 9) break;
      value = value * 10 + digit;
    }
    if (i === raw.length) return value;
  }
  const text = (raw ?? '').trim().replace(/,/g, '');
  if (text === '') return null;
  if (!/^[-+]?(\d+\.?\d*|\.\d+)$/.test(text)) throw new FieldError(`not a number: ${JSON.stringify(raw)}`);
  const value = Math.round(Number(text));
  if (!Number.isSafeInteger(value)) throw new FieldError(`number out of 64-bit-safe range: ${raw}`);
  return value === 0 ? 0 : value;
}

/** Decimal amounts such as ADV's `"   576,373,248.00"` or `".00"`; null when empty. */
export function parseDecimalAmount(raw: string | undefined | null): number | null {
  const text = (raw ?? '').trim().replace(/,/g, '');
  if (text === '') return null;
  if (!/^[-+]?(\d+\.?\d*|\.\d+)$/.test(text)) throw new FieldError(`not a number: ${JSON.stringify(raw)}`);
  const value = Number(text);
  if (!Number.isFinite(value)) throw new FieldError(`not a finite number: ${JSON.stringify(raw)}`);
  return value === 0 ? 0 : value;
}

/** CIKs come as `0001067983` or `1067983`; stored as an integer. */
export function parseCik(raw: string | undefined | null): number {
  const text = (raw ?? '').trim();
  if (!/^\d{1,10}$/.test(text)) throw new FieldError(`invalid CIK ${JSON.stringify(raw)}`);
  const value = Number(text);
  if (value === 0) throw new FieldError(`invalid CIK ${JSON.stringify(raw)}`);
  return value;
}

/** The quarter a period end falls in, `YYYY-QN`. */
export function quarterOf(isoDay: string): string {
  const month = Number(isoDay.slice(5, 7));
  return `${isoDay.slice(0, 4)}-Q${Math.ceil(month / 3)}`;
}

/** Empty or whitespace-only text is unknown (null), never `""`. */
export function textOrNull(raw: string | undefined | null): string | null {
  const text = raw?.trim() ?? '';
  return text === '' ? null : text;
}

/** `Y`/`N`, `true`/`false` → boolean; empty → null. */
export function parseFlag(raw: string | undefined | null): boolean | null {
  const text = (raw ?? '').trim().toUpperCase();
  if (text === '') return null;
  if (text === 'Y' || text === 'YES' || text === 'TRUE' || text === '1') return true;
  if (text === 'N' || text === 'NO' || text === 'FALSE' || text === '0') return false;
  throw new FieldError(`not a yes/no flag: ${JSON.stringify(raw)}`);
}
