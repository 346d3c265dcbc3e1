/**
 * The representative URL set of each endpoint, with identifiers picked from the dataset itself:
 * the heavy cases on purpose (a state's financials snapshot, holders of the most-held CUSIP, the
 * overlap of the 5 largest portfolios, limit=500 pages, the largest manager's changes).
 */
import Database from 'better-sqlite3';
import { isEquityCode, SECURITY_POSITIONS, unpackPositions } from '../src/holdings/portfolio-pack.js';

export type UrlSets = Record<string, string[]>;

/**
 * The heavy answers (issue 19), measured against their floor: the whole-portfolio answers and the
 * depth issues' largest (holders with their changes, a metric's peer history, the industry series).
 */
export const HEAVY_SETS: readonly string[] = [
  'portfolio',
  'overlap',
  'compare',
  'security holders',
  'peers history',
  'aggregates series',
];

const TWENTY_FIELDS = [
  'total_assets',
  'total_deposits',
  'total_loans',
  'total_equity',
  'net_income',
  'roa',
  'roe',
  'efficiency_ratio',
  'npl_ratio',
  'tier1_leverage',
  'equity_ratio',
  'loan_to_deposit',
  'charge_off_rate',
  'net_interest_margin',
  'interest_income',
  'interest_expense',
  'noninterest_income',
  'noninterest_expense',
  'cet1_ratio',
  'total_risk_based_ratio',
].join(',');

export function urlSets(path: string): UrlSets {
  const db = new Database(path, { readonly: true, fileMustExist: true });
  const one = <T>(sql: string, ...params: unknown[]) =>
    db
      .prepare(sql)
      .pluck()
      .get(...params) as T;
  const many = <T>(sql: string, ...params: unknown[]) =>
    db
      .prepare(sql)
      .pluck()
      .all(...params) as T[];
  try {
    const quarter = one<string>('SELECT max(quarter) FROM manager_quarters');
    const bigManagers = many<string>(
      'SELECT cik FROM manager_quarters WHERE quarter = ? ORDER BY position_count DESC, cik LIMIT 5',
      quarter,
    );
    const mostHeld = many<string>(
      'SELECT cusip FROM security_quarters WHERE quarter = ? ORDER BY holder_count DESC, cusip LIMIT 3',
      quarter,
    );
    // The largest equity holder: the first equity position of the security's packed positions.
    const heldBy = (cusip: string) => {
      const pack = unpackPositions(
        SECURITY_POSITIONS,
        one<Buffer>(
          'SELECT positions FROM security_positions WHERE quarter = ? AND cusip = ?',
          quarter,
          cusip,
        ),
      );
      const first = Array.from({ length: pack.count }, (_, i) => i).find((i) =>
        isEquityCode(pack.codes[i] as number),
      );
      if (first === undefined) throw new Error(`${cusip} has no equity holder in ${quarter}`);
      return pack.key(first);
    };
    const tickers = many<string>(
      'SELECT s.ticker FROM security_latest l JOIN securities s ON s.cusip = l.cusip WHERE s.ticker IS NOT NULL ORDER BY l.total_value DESC LIMIT 2',
    );
    const crds = many<number>('SELECT crd FROM advisers ORDER BY aum DESC, crd LIMIT 3');
    const certs = many<number>('SELECT cert FROM institutions ORDER BY asset_size DESC, cert LIMIT 3');
    const date = one<string>('SELECT max(report_date) FROM financials');
    // SPEC §7 targets: the largest registered banks (two-hop graphs through their registrant).
    const registered = many<number>(
      `SELECT i.cert FROM institutions i JOIN entity_links l ON l.from_id = 'rssd:' || i.holding_company_rssd
       AND l.relation = 'registered_as' ORDER BY i.asset_size DESC, i.cert LIMIT 3`,
    );
    const registrantTickers = many<string>(
      `SELECT r.ticker FROM sec_registrants r JOIN entity_links l ON l.to_id = 'cik:' || r.cik
       AND l.relation = 'registered_as' ORDER BY r.cik LIMIT 2`,
    );
    const [a, b, c] = bigManagers;
    const midSeason = one<string>(
      `SELECT filing_date FROM filings_13f WHERE quarter = ? ORDER BY filing_date LIMIT 1 OFFSET (SELECT count(*) / 2 FROM filings_13f WHERE quarter = ?)`,
      quarter,
      quarter,
    );
    // The largest portfolio with an amendment filed after its base, the day before it: the path that
    // resolves the quarter from raw rows (the largest manager itself has no amendment).
    const amended = db
      .prepare(
        `SELECT a.cik, a.quarter, a.filing_date AS day FROM filings_13f a
         JOIN filings_13f b ON b.cik = a.cik AND b.quarter = a.quarter AND b.form_type = '13F-HR' AND b.filing_date < a.filing_date
         JOIN manager_quarters m ON m.cik = a.cik AND m.quarter = a.quarter
         WHERE a.form_type = '13F-HR/A' ORDER BY m.position_count DESC, a.cik LIMIT 1`,
      )
      .get() as { cik: string; quarter: string; day: string } | undefined;
    const dayBefore = (day: string) =>
      new Date(Date.parse(`${day}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
    return {
      banks: [
        '/api/v1/banks?state=TX&limit=500',
        '/api/v1/banks?q=first&limit=100',
        '/api/v1/banks?sortBy=asset_size&limit=50',
      ],
      financials: [
        `/api/v1/financials?state=TX&date=${date}&limit=500`,
        `/api/v1/financials?state=CA&limit=500`,
        ...certs.map((x) => `/api/v1/financials?cert=${x}&limit=100`),
      ],
      fields: ['/api/v1/fields'],
      // SPEC §5 targets: three filters and twenty fields at limit=500.
      'financials filtered': [
        `/api/v1/financials?date=${date}&total_assets__gte=100000&tier1_leverage__lt=12&roa__isnull=false&fields=${TWENTY_FIELDS}&limit=500`,
        `/api/v1/financials?total_deposits__lte=5000000&equity_ratio__gt=8&npl_ratio__lt=2&fields=${TWENTY_FIELDS}&sortBy=roa&limit=500`,
      ],
      peers: certs.map((x) => `/api/v1/peers/${x}`),
      'peers history': certs.map((x) => `/api/v1/peers/${x}/history?metric=roa`),
      'aggregates state': [`/api/v1/aggregates?date=${date}&group_by=state`],
      'aggregates series': ['/api/v1/aggregates?start=1900-01-01'],
      failures: [
        '/api/v1/failures?limit=500',
        '/api/v1/failures?state=TX&limit=100',
        '/api/v1/failures?year=2010',
      ],
      macro: [
        '/api/v1/macro?series=UNRATE,FEDFUNDS,DGS10&start=2000-01-01',
        '/api/v1/macro?series=USREC',
        '/api/macro',
      ],
      embed: certs.flatMap((x) => [`/embed/${x}/roa`, `/embed/${x}/tier1_leverage.svg`]),
      meta: ['/api/v1/meta', '/api/meta'],
      stats: ['/api/stats'],
      advisers: [
        '/api/advisers?limit=500',
        '/api/advisers?q=capital&limit=100',
        '/api/advisers?state=NY&sort=aum&limit=50',
      ],
      adviser: crds.map((crd) => `/api/advisers/${crd}`),
      'holdings managers': [
        `/api/holdings?mode=managers&limit=500`,
        `/api/holdings?mode=managers&q=capital&limit=100`,
      ],
      'holdings stocks': [
        ...mostHeld.map((cusip) => `/api/holdings?mode=stocks&cusip=${cusip}&limit=500`),
        '/api/holdings?mode=stocks&limit=500',
      ],
      portfolio: bigManagers.slice(0, 3).map((cik) => `/api/holdings/${cik}`),
      timeline: bigManagers.slice(0, 3).map((cik) => `/api/holdings/${cik}/timeline`),
      crowded: ['/api/crowded', '/api/crowded?limit=500'],
      'smart-money': ['/api/smart-money', '/api/smart-money?limit=100'],
      // SPEC §6 targets: changes of the largest manager, holders of the most-held CUSIP, security and
      // position history, ticker search, filing progress.
      changes: [
        `/api/holdings/${a}/changes`,
        `/api/holdings/${a}/changes?limit=1000`,
        `/api/holdings/${b}/changes?status=new`,
      ],
      'security holders': mostHeld.map((cusip) => `/api/securities/${cusip}/holders`),
      'security history': mostHeld.map((cusip) => `/api/securities/${cusip}`),
      'position history': mostHeld.map((cusip) => `/api/holdings/${heldBy(cusip)}/positions/${cusip}`),
      'security search': [
        ...tickers.map((ticker) => `/api/securities?q=${ticker.toLowerCase()}`),
        ...tickers.map((ticker) => `/api/securities?ticker=${ticker}`),
        '/api/securities?q=tech',
      ],
      'filing progress': ['/api/filing-progress'],
      'entities resolve': [
        ...registrantTickers.map((ticker) => `/api/entities/resolve?id=ticker:${ticker}`),
        ...registered.slice(0, 1).map((cert) => `/api/entities/resolve?id=cert:${cert}`),
        `/api/entities/resolve?id=crd:${crds[0]}`,
      ],
      'bank profile': registered.map((cert) => `/api/v1/banks/${cert}/profile`),
      // SPEC §8 targets: as_of portfolio of the largest manager and as_of crowded (≤ 100 ms); freshness
      // and changes (≤ 10 ms). The day: the middle of the latest quarter's filing season.
      'as_of portfolio': [
        `/api/holdings/${a}?as_of=${midSeason}`,
        ...(amended
          ? [`/api/holdings/${amended.cik}?quarter=${amended.quarter}&as_of=${dayBefore(amended.day)}`]
          : []),
      ],
      'as_of crowded': [`/api/crowded?as_of=${midSeason}`, `/api/crowded?as_of=${midSeason}&limit=100`],
      freshness: ['/api/freshness', '/api/v1/freshness'],
      'changes feed': ['/api/changes', '/api/v1/changes?since=1'],
      overlap: [`/api/overlap?ciks=${bigManagers.join(',')}`, `/api/overlap?ciks=${a},${b}`],
      compare: [`/api/compare?cik1=${a}&cik2=${b}`, `/api/compare?cik1=${b}&cik2=${c}`],
    };
  } finally {
    db.close();
  }
}
