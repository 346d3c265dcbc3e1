/**
 * The Official List of Section 13(f) Securities, fixed-width text (`13flist{YYYY}q{Q}.txt`, from
 * 2026Q2 possibly `13flist{YYYY}q{Q}-txt.txt`). One line per security: CUSIP in columns 0–8, a flag
 * in column 9, then issuer name, class description and an optional status. Widths drift between
 * quarters, so each line is anchored on its CUSIP and the rest split on runs of two or more spaces,
 * falling back to the usual column positions when a name fills its column.
 */
import type { OfficialListEntry, Rejection } from './types.js';

const LINE = /^([0-9A-Z]{9})([ *])(.*)$/;
const STATUS = /^(?:\*?([AD])\*?|(ADDED|DELETED))$/;

/** CUSIP check digit (modulus 10, "double add double"), letters A=10 … Z=35, * @ # = 36 37 38. */
export function cusipCheckDigit(first8: string): number {
  let sum = 0;
  for (let i = 0; i < 8; i += 1) {
    const ch = first8.charAt(i);
    let v: number;
    if (ch >= '0' && ch <= '9') v = ch.charCodeAt(0) - 48;
    else if (ch >= 'A' && ch <= 'Z') v = ch.charCodeAt(0) - 55;
    else v = { '*': 36, '@': 37, '#': 38 }[ch] ?? 0;
    if (i % 2 === 1) v *= 2;
    sum += Math.floor(v / 10) + (v % 10);
  }
  return (10 - (sum % 10)) % 10;
}

export function isValidCusip(cusip: string): boolean {
  return /^[0-9A-Z*@#]{8}\d$/.test(cusip) && cusipCheckDigit(cusip.slice(0, 8)) === Number(cusip[8]);
}

function splitFields(rest: string): { issuer: string; titleOfClass: string | null; status: string | null } {
  const parts = rest
    .trim()
    .split(/\s{2,}/)
    .filter((part) => part !== '');
  let status: string | null = null;
  const last = parts[parts.length - 1];
  const statusMatch = last === undefined ? null : STATUS.exec(last);
  if (statusMatch && parts.length > 1) {
    parts.pop();
    status = statusMatch[1] ?? statusMatch[2]!.charAt(0);
  }
  if (parts.length >= 2) return { issuer: parts[0]!, titleOfClass: parts.slice(1).join(' '), status };
  // A name that fills its column leaves a single space before the class: use the usual widths.
  const padded = rest.padEnd(60);
  const issuer = padded.slice(0, 30).trim();
  const titleOfClass = padded.slice(30).trim();
  return { issuer: issuer || (parts[0] ?? ''), titleOfClass: titleOfClass || null, status };
}

/** Parses the decoded list; header/footer lines are ignored, bad CUSIPs rejected with a reason. */
export function parseOfficialList(text: string, rejections: Rejection[]): OfficialListEntry[] {
  const entries: OfficialListEntry[] = [];
  const lines = text.split(/\r\n?|\n/);
  lines.forEach((line, index) => {
    const match = LINE.exec(line);
    if (!match) return;
    const cusip = match[1]!;
    if (!isValidCusip(cusip)) {
      // Page headers ("CUSIP NO …") never reach here: they fail the pattern above.
      rejections.push({ where: `line ${index + 1}`, reason: `CUSIP check digit mismatch (${cusip})` });
      return;
    }
    // The option/new flag sits in column 9 (sometimes one column later); it is not part of the name.
    const fields = splitFields(match[3]!.replace(/^\s?\*(?=\s)/, ' '));
    if (fields.issuer === '') {
      rejections.push({ where: `line ${index + 1}`, reason: `no issuer name for ${cusip}` });
      return;
    }
    entries.push({ cusip, ...fields });
  });
  return entries;
}
