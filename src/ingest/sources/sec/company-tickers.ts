/**
 * Tickers for 13(f) securities. SEC's `company_tickers.json` (and `company_tickers_exchange.json`)
 * map ticker ↔ CIK ↔ company name but carry no CUSIP, so securities are matched by normalised issuer
 * name. The matcher is deliberately conservative: a ticker is assigned only when the name matches
 * exactly one company that has exactly one ticker, and only to common-equity classes (not options,
 * notes, warrants, units or preferred shares, which trade under other symbols or none).
 */

export interface CompanyTicker {
  cik: number;
  ticker: string;
  title: string;
}

/** Reads either JSON shape: `{"0":{cik_str,ticker,title},…}` or `{fields:[…],data:[[…]]}`. */
export function parseCompanyTickers(json: string): CompanyTicker[] {
  const parsed = JSON.parse(json) as unknown;
  if (parsed === null || typeof parsed !== 'object') throw new Error('company tickers: not a JSON object');
  const out: CompanyTicker[] = [];
  if ('fields' in parsed && 'data' in parsed) {
    const { fields, data } = parsed as { fields: string[]; data: unknown[][] };
    const at = (name: string) => fields.indexOf(name);
    const [cik, ticker, name] = [at('cik'), at('ticker'), at('name')];
    if (cik < 0 || ticker < 0 || name < 0) throw new Error('company tickers: missing cik/ticker/name fields');
    for (const row of data) add(out, row[cik], row[ticker], row[name]);
  } else {
    for (const entry of Object.values(parsed as Record<string, Record<string, unknown>>)) {
      add(out, entry?.cik_str, entry?.ticker, entry?.title);
    }
  }
  if (out.length === 0) throw new Error('company tickers: no entries');
  return out;
}

function add(out: CompanyTicker[], cik: unknown, ticker: unknown, title: unknown) {
  const cikNumber = Number(cik);
  if (!Number.isSafeInteger(cikNumber) || cikNumber <= 0) return;
  if (typeof ticker !== 'string' || ticker.trim() === '' || typeof title !== 'string') return;
  out.push({ cik: cikNumber, ticker: ticker.trim().toUpperCase(), title: title.trim() });
}

// Legal-form and filler words that differ between the 13(f) list and EDGAR names.
const NOISE = new Set(
  (
    'INC INCORPORATED CORP CORPORATION CO COMPANY LTD LIMITED PLC LLC LP L P NV N V SA S A AG SE ' +
    'THE HLDGS HOLDINGS HOLDING GROUP GRP DEL NEW COM CL CLASS A B C /DE/ /NEW/ DE MD NY'
  ).split(' '),
);

/** `Apple Inc.` and `APPLE INC` → `APPLE`; `AMAZON.COM INC` and `AMAZON COM INC` → `AMAZON`. */
export function normaliseCompanyName(name: string): string {
  const words = name
    .toUpperCase()
    .replace(/&/g, ' AND ')
    .replace(/\/[A-Z]{2,3}\//g, ' ')
    .replace(/[^A-Z0-9]+/g, ' ')
    .trim()
    .split(' ')
    .filter((word) => word !== '' && !NOISE.has(word));
  return words.join(' ');
}

const NOT_COMMON_EQUITY =
  /\b(CALL|PUT|NOTE|NOTES|DEBT|DBCV|BOND|BD|WT|WTS|WARRANT|WARRANTS|RT|RTS|RIGHT|RIGHTS|UNIT|UNITS|PFD|PREF|PREFERRED|DEP)\b/;

export function isCommonEquityClass(titleOfClass: string | null): boolean {
  return titleOfClass === null || !NOT_COMMON_EQUITY.test(titleOfClass.toUpperCase());
}

/** Builds a matcher: issuer name + class → ticker, or null when not confidently known. */
export function tickerMatcher(companies: readonly CompanyTicker[]) {
  const byName = new Map<string, Set<number>>();
  const tickersByCik = new Map<number, string[]>();
  for (const company of companies) {
    const key = normaliseCompanyName(company.title);
    if (key === '') continue;
    const ciks = byName.get(key) ?? new Set<number>();
    ciks.add(company.cik);
    byName.set(key, ciks);
    const tickers = tickersByCik.get(company.cik) ?? [];
    if (!tickers.includes(company.ticker)) tickers.push(company.ticker);
    tickersByCik.set(company.cik, tickers);
  }
  return (issuer: string, titleOfClass: string | null): string | null => {
    if (!isCommonEquityClass(titleOfClass)) return null;
    const ciks = byName.get(normaliseCompanyName(issuer));
    const only = ciks?.size === 1 ? [...ciks][0] : undefined;
    if (only === undefined) return null;
    const tickers = tickersByCik.get(only) ?? [];
    return tickers.length === 1 ? tickers[0]! : null;
  };
}
