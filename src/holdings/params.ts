/** Holdings parameter schemas (SPEC §3 identifiers) and the shared response field helpers. */
import { Type } from 'typebox';
import { dateParam } from '../http/params.js';
import { invalidParams, type ParamError } from '../http/problem.js';
import { CIK_PATTERN, padCik } from './identifiers.js';

const CIK_ERROR = 'must be a CIK of 1 to 10 digits (leading zeros optional)';

export function cikParam(description: string) {
  return Type.String({
    pattern: '^\\d{1,10}$',
    'x-error': CIK_ERROR,
    description: `${description}: SEC CIK, 1 to 10 digits, leading zeros optional (\`1067983\` = \`0001067983\`)`,
  });
}

export function quarterParamWith(defaultText: string) {
  return Type.String({
    pattern: '^\\d{4}-Q[1-4]$',
    'x-kind': 'upper',
    'x-error': 'must be a quarter in YYYY-QN form (N from 1 to 4)',
    description: `Calendar quarter of the 13F period of report, \`YYYY-QN\` (case-insensitive); a well-formed quarter without filings is a 404. Default: ${defaultText}`,
  });
}

export const quarterParam = quarterParamWith('the latest quarter loaded');

export const cusipParam = Type.String({
  pattern: '^[A-Z0-9]{9}$',
  'x-kind': 'upper',
  'x-error': 'must be a CUSIP of 9 letters or digits',
  description: 'CUSIP: 9 letters or digits, case-insensitive (normalised to upper case)',
});

/** SPEC §8: only 13F filings made on or before the day count (amendments filed later are not applied). */
export const asOfParam = dateParam(
  'YYYY-MM-DD: the answer as it stood at the end of that day — only 13F filings with a filing date on or before it count (an amendment filed later is not applied; a manager that had not filed is absent). Without it, every filing loaded',
);

export const crdParam = Type.String({
  pattern: '^\\d{1,12}$',
  'x-error': 'must be a CRD number (digits only)',
  description: 'CRD number of the adviser (FINRA/IARD organisation number), digits only',
});

/** Parses a comma-separated CIK list into distinct 10-digit CIKs, or the errors to report. */
export function parseCikList(raw: string): { ciks: string[] } | { error: string } {
  const parts = raw
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '');
  if (parts.some((part) => !CIK_PATTERN.test(part))) {
    return { error: `must be a comma-separated list of CIKs, each 1 to 10 digits` };
  }
  const ciks = [...new Set(parts.map(padCik))];
  if (ciks.length < 2 || ciks.length > 5) {
    return { error: `must list 2 to 5 distinct CIKs (got ${ciks.length} distinct)` };
  }
  return { ciks };
}

export function ciksListError(ciks: unknown): ParamError[] {
  if (ciks === undefined) return [];
  const parsed = parseCikList(String(ciks));
  return 'error' in parsed ? [{ param: 'ciks', message: parsed.error }] : [];
}

/** The typed list (validation already ran in config.params). */
export function cikList(raw: string): string[] {
  const parsed = parseCikList(raw);
  if ('error' in parsed) throw invalidParams([{ param: 'ciks', message: parsed.error }]);
  return parsed.ciks;
}

// ---- response field helpers -------------------------------------------------------------------

export const cikField = Type.String({ description: 'SEC CIK, 10-digit zero-padded string' });
export const quarterField = Type.String({ description: 'Quarter of the period of report, YYYY-QN' });
export const issuerField = Type.String({
  description: 'Issuer name as filed (NAMEOFISSUER) or from the security master',
});
export const cusipField = Type.String({ description: 'CUSIP, 9 characters, upper case' });
export const tickerField = Type.Union([Type.String(), Type.Null()], {
  description:
    'Exchange ticker, matched from SEC company_tickers.json by issuer name (`regdata ingest sec-securities`); null when unknown',
});
export const nullableText = (description: string) =>
  Type.Union([Type.String(), Type.Null()], { description });
export const thousands = (what: string) =>
  Type.Number({
    description: `${what}, thousands of USD (filings in whole dollars are divided by 1000 and keep up to 3 decimals; not rounded)`,
  });
export const count = (description: string) => Type.Integer({ description });
export const weightField = (what: string) =>
  Type.Number({ description: `${what}: percent of the manager's total portfolio value (12.5 means 12.5 %)` });
export const shareTypeField = Type.String({ description: '`SH` (shares) or `PRN` (principal amount, USD)' });
export const putCallField = Type.Union([Type.String(), Type.Null()], {
  description: '`PUT` or `CALL` for option positions (shares = underlying shares); null for plain positions',
});

/**
 * Values leave the API rounded to 3 decimals (one dollar), which removes float summation noise;
 * weights to 4 decimals of a percent. `…Count` is the rounded integer (count / 10^decimals is the
 * number served): answers written byte by byte write it with JsonBuffer.scaled, so both paths round
 * by this one rule.
 */
export const MONEY_DECIMALS = 3;
export const moneyCount = (value: number): number => Math.round(value * 1000);
export const money = (value: number | string | null | undefined): number =>
  moneyCount(Number(value ?? 0)) / 1000;
export const PERCENT_DECIMALS = 4;
export const percentCount = (part: number, whole: number): number =>
  whole > 0 ? Math.round((part / whole) * 100 * 10_000) : 0;
export const percent = (part: number, whole: number): number => percentCount(part, whole) / 10_000;
