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
  /** `Nasdaq`, `NYSE`, `OTC`, …: only company_tickers_exchange.json says; null otherwise. */
  exchange: string | null;
}

/**
 * Reads either JSON shape: `{"0":{cik_str,ticker,title},…}` or `{fields:[…],data:[[…]]}`. An entry
 * without a positive integer CIK, a ticker or a name is left out and reported to `onReject`.
 */
export function parseCompanyTickers(
  json: string,
  onReject: (reason: string) => void = () => {},
): CompanyTicker[] {
  const parsed = JSON.parse(json) as unknown;
  if (parsed === null || typeof parsed !== 'object') throw new Error('company tickers: not a JSON object');
  const out: CompanyTicker[] = [];
  let rejected = 0;
  const reject = (reason: string) => {
    rejected += 1;
    onReject(reason);
  };
  if ('fields' in parsed && 'data' in parsed) {
    const { fields, data } = parsed as { fields: string[]; data: unknown[][] };
    const at = (name: string) => fields.indexOf(name);
    const [cik, ticker, name, exchange] = [at('cik'), at('ticker'), at('name'), at('exchange')];
    if (cik < 0 || ticker < 0 || name < 0) throw new Error('company tickers: missing cik/ticker/name fields');
    for (const row of data)
      add(out, reject, row[cik], row[ticker], row[name], exchange < 0 ? null : row[exchange]);
  } else {
    for (const entry of Object.values(parsed as Record<string, Record<string, unknown>>)) {
      add(out, reject, entry?.cik_str, entry?.ticker, entry?.title, null);
    }
  }
  // Entries that were all rejected are the guard's to judge; no entries at all is not this file.
  if (out.length === 0 && rejected === 0) throw new Error('company tickers: no entries');
  return out;
}

// biome-ignore format: one line per argument would read worse
function add(out: CompanyTicker[], onReject: (reason: string) => void, cik: unknown, ticker: unknown, title: unknown, exchange: unknown) {
  const cikNumber = typeof cik === 'number' || (typeof cik === 'string' && /^\d+$/.test(cik)) ? Number(cik) : Number.NaN;
  if (!Number.isSafeInteger(cikNumber) || cikNumber <= 0 || cikNumber > 9_999_999_999) return onReject('invalid CIK');
  if (typeof ticker !== 'string' || ticker.trim() === '') return onReject('missing ticker');
  if (typeof title !== 'string' || title.trim() === '') return onReject('missing name');
  const listed = typeof exchange === 'string' && exchange.trim() !== '' ? exchange.trim() : null;
  out.push({ cik: cikNumber, ticker: ticker.trim().toUpperCase(), title: title.trim(), exchange: listed });
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
