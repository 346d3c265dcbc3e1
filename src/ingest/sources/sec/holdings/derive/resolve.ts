/**
 * Which filings make up a manager's quarter (SPEC §3): the latest original 13F-HR for the period,
 * then amendments filed on or after it in filing order: a RESTATEMENT replaces everything so far,
 * NEW HOLDINGS adds its rows. A 13F-HR/A without an amendment type is treated as a RESTATEMENT.
 * 13F-NT and 13F-NT/A carry no holdings and are ignored here. A period with amendments but no
 * original is based on its latest RESTATEMENT; NEW HOLDINGS with nothing to add to are ignored.
 */

export interface FilingHeader {
  accession_number: string;
  cik: string;
  quarter: string;
  filing_date: string;
  form_type: string;
  amendment_type: string | null;
}

export interface ResolvedQuarter {
  cik: string;
  quarter: string;
  /** The 13F-HR (or RESTATEMENT) the quarter is based on. */
  base: FilingHeader;
  /** NEW HOLDINGS amendments applied on top of the base, in filing order. */
  additions: FilingHeader[];
  /** The last filing applied (gives filed_at and form_type). */
  latest: FilingHeader;
}

const byFilingOrder = (a: FilingHeader, b: FilingHeader) =>
  a.filing_date.localeCompare(b.filing_date) || a.accession_number.localeCompare(b.accession_number);

function isRestatement(filing: FilingHeader): boolean {
  return filing.form_type === '13F-HR/A' && (filing.amendment_type ?? 'RESTATEMENT') === 'RESTATEMENT';
}

/** Resolves one manager's filings for one period (any order, any form types). */
export function resolveManagerQuarter(filings: readonly FilingHeader[]): ResolvedQuarter | null {
  const reports = filings.filter((f) => f.form_type === '13F-HR' || f.form_type === '13F-HR/A');
  if (reports.length === 0) return null;
  const sorted = [...reports].sort(byFilingOrder);
  const lastOriginal = sorted.findLastIndex((f) => f.form_type === '13F-HR');
  let base: FilingHeader | null = lastOriginal >= 0 ? (sorted[lastOriginal] as FilingHeader) : null;
  let additions: FilingHeader[] = [];
  for (const filing of sorted.slice(Math.max(lastOriginal, 0))) {
    if (filing === base) continue;
    if (isRestatement(filing)) {
      base = filing;
      additions = [];
    } else if (filing.form_type === '13F-HR/A' && base) {
      additions.push(filing);
    }
  }
  if (!base) return null;
  const latest = additions.at(-1) ?? base;
  return { cik: base.cik, quarter: base.quarter, base, additions, latest };
}

/** Groups filings by (cik, quarter) and resolves each group. */
export function resolveQuarters(filings: readonly FilingHeader[]): ResolvedQuarter[] {
  const groups = new Map<string, FilingHeader[]>();
  for (const filing of filings) {
    const key = `${filing.cik}|${filing.quarter}`;
    const group = groups.get(key);
    if (group) group.push(filing);
    else groups.set(key, [filing]);
  }
  const resolved: ResolvedQuarter[] = [];
  for (const group of groups.values()) {
    const quarter = resolveManagerQuarter(group);
    if (quarter) resolved.push(quarter);
  }
  return resolved;
}
