/**
 * The holdings tables of the export: advisers (Form ADV, with the 13F filer they are linked to),
 * 13F managers (with the adviser's CRD), positions of every resolved manager quarter with the
 * security's issuer and ticker, the security master, and the identity graph's links.
 */
import { codeRank, putCallOf, shareTypeOf, unpackPortfolio } from '../../holdings/portfolio-pack.js';
import type { ExportTable } from '../types.js';
import { column, placeholder, THOUSANDS_USD } from './columns.js';
import { adviserCrdByCik } from './identity.js';

const ADVISER_COUNTS = [
  'employees',
  'clients',
  'clients_individuals',
  'clients_high_net_worth',
  'clients_investment_companies',
  'clients_pooled_vehicles',
  'clients_pension_plans',
  'clients_other',
  'private_funds',
  'hedge_funds',
  'private_equity_funds',
] as const;

const ADVISER_TEXT = [
  'sec_number',
  'cik',
  'name',
  'legal_name',
  'address',
  'city',
  'state',
  'country',
] as const;

export const advisers: ExportTable = {
  name: 'advisers',
  table: 'advisers',
  description: 'SEC-registered investment advisers (Form ADV)',
  columns: [
    column('crd', 'BIGINT', null, 'CRD number'),
    column('sec_number', 'VARCHAR', null, 'SEC file number (801-…)'),
    column('cik', 'VARCHAR', null, 'The 13F filer (10-digit CIK) the adviser is, where known'),
    column('name', 'VARCHAR', null, 'Business name'),
    column('legal_name', 'VARCHAR', null, 'Legal name'),
    column('address', 'VARCHAR', null, 'Main office address'),
    column('city', 'VARCHAR', null, 'City'),
    column('state', 'VARCHAR', null, 'State'),
    column('country', 'VARCHAR', null, 'Country'),
    column('phone', 'VARCHAR', null, 'Phone'),
    column('website', 'VARCHAR', null, 'Web site'),
    column('aum', 'DOUBLE', 'USD', 'Regulatory assets under management (Form ADV 5.F(2)(c))'),
    column('discretionary_aum', 'DOUBLE', 'USD', 'Discretionary AUM (5.F(2)(a))'),
    ...ADVISER_COUNTS.map((name) => column(name, 'BIGINT', 'count', name.replaceAll('_', ' '))),
    column('registration_status', 'VARCHAR', null, 'SEC registration status'),
    column('latest_filing_date', 'DATE', null, 'Latest Form ADV filing date'),
  ],
  query: (db) =>
    db
      .selectFrom('advisers')
      .select(['crd', ...ADVISER_TEXT, 'phone', 'website', 'aum', 'discretionary_aum', ...ADVISER_COUNTS])
      .select(['registration_status', 'latest_filing_date'])
      .orderBy('crd'),
};

export const managers: ExportTable = {
  name: 'managers',
  table: 'managers, entity_links',
  description: '13F filers (latest cover-page identity), with the Form ADV adviser (CRD) where linked',
  columns: [
    column('cik', 'VARCHAR', null, 'Filer CIK, 10 digits'),
    column('name', 'VARCHAR', null, 'Manager name'),
    column('city', 'VARCHAR', null, 'City'),
    column('state', 'VARCHAR', null, 'State (US managers)'),
    column('country', 'VARCHAR', null, 'ISO 3166 alpha-2 country'),
    column('crd', 'BIGINT', null, 'The adviser (CRD) the identity graph links the filer to'),
  ],
  query: (db) =>
    db
      .selectFrom('managers')
      .select(['cik', 'name', 'city', 'state', 'country', placeholder('crd')])
      .orderBy('cik'),
  async complete(db) {
    const crds = await adviserCrdByCik(db);
    return (row) => {
      row[5] = crds.get(row[0] as string) ?? null;
      return row;
    };
  },
};

export const positions: ExportTable = {
  name: 'positions',
  table: 'manager_portfolios, securities',
  description:
    "Every position of every manager's resolved quarter (amendments applied), with issuer and ticker",
  columns: [
    column('cik', 'VARCHAR', null, 'Filer CIK, 10 digits'),
    column('quarter', 'VARCHAR', null, 'Quarter, YYYY-QN'),
    column('cusip', 'VARCHAR', null, 'CUSIP, 9 characters'),
    column('issuer', 'VARCHAR', null, 'Issuer name (security master)'),
    column('title_of_class', 'VARCHAR', null, 'Title of class'),
    column('ticker', 'VARCHAR', null, 'Ticker, where known'),
    column('share_type', 'VARCHAR', null, '`SH` (shares) or `PRN` (principal amount)'),
    column('put_call', 'VARCHAR', null, '`PUT`, `CALL` or null'),
    column('value', 'DOUBLE', THOUSANDS_USD, 'Market value (whatever unit the filing used)'),
    column('shares', 'BIGINT', 'shares (principal amount in USD for PRN)', 'Shares or principal amount'),
  ],
  // Manager quarters in key order (cik, quarter), each one's positions by CUSIP, share type and
  // put/call (null first).
  query: (db) =>
    db
      .selectFrom('manager_portfolios')
      .select(['cik', 'quarter', 'positions'])
      .orderBy('cik')
      .orderBy('quarter'),
  unpack: {
    // The largest portfolios hold ~10,000 positions: 20 of them, ~200,000 row arrays (a few tens of
    // MB) per read at most.
    readAtOnce: 20,
    async rows(db) {
      const master = new Map(
        (
          await db.selectFrom('securities').select(['cusip', 'issuer', 'title_of_class', 'ticker']).execute()
        ).map((s) => [s.cusip, s]),
      );
      return ([cik, quarter, packed]) => {
        const pack = unpackPortfolio(packed as Uint8Array);
        const order = Array.from({ length: pack.count }, (_, i) => i);
        const cusips = order.map((i) => pack.cusip(i));
        order.sort((a, b) => {
          const x = cusips[a] as string;
          const y = cusips[b] as string;
          if (x !== y) return x < y ? -1 : 1;
          return codeRank(pack.codes[a] as number) - codeRank(pack.codes[b] as number);
        });
        return order.map((i) => {
          const cusip = cusips[i] as string;
          const security = master.get(cusip);
          const code = pack.codes[i] as number;
          // biome-ignore format: one row
          return [cik, quarter, cusip, security?.issuer ?? null, security?.title_of_class ?? null, security?.ticker ?? null,
            shareTypeOf(code), putCallOf(code), pack.values[i], pack.shares[i]];
        });
      };
    },
  },
};

export const securities: ExportTable = {
  name: 'securities',
  table: 'securities',
  description: 'The security master: the Official 13(f) list and every CUSIP a filing named, with tickers',
  columns: [
    column('cusip', 'VARCHAR', null, 'CUSIP, 9 characters'),
    column('issuer', 'VARCHAR', null, 'Issuer name'),
    column('title_of_class', 'VARCHAR', null, 'Title of class'),
    column('ticker', 'VARCHAR', null, 'Ticker, where known'),
  ],
  query: (db) =>
    db.selectFrom('securities').select(['cusip', 'issuer', 'title_of_class', 'ticker']).orderBy('cusip'),
};

export const entityLinks: ExportTable = {
  name: 'entity_links',
  table: 'entity_links',
  description: 'The identity graph (docs/identity.md): one row per link',
  columns: [
    column('from_id', 'VARCHAR', null, 'Entity id, `scheme:value` (cert, rssd, name, cik, crd, cusip)'),
    column('from_kind', 'VARCHAR', null, 'bank, holding_company, sec_registrant, manager, adviser, security'),
    column('from_name', 'VARCHAR', null, 'Name'),
    column(
      'relation',
      'VARCHAR',
      null,
      'subsidiary_of, registered_as, issuer_of, files_13f_as, same_firm_as',
    ),
    column('to_id', 'VARCHAR', null, 'Entity id'),
    column('to_kind', 'VARCHAR', null, 'Entity kind'),
    column('to_name', 'VARCHAR', null, 'Name'),
    column('source', 'VARCHAR', null, 'The load the link comes from'),
    column('method', 'VARCHAR', null, 'identifier, name_match or manual'),
    column(
      'confidence',
      'DOUBLE',
      'fraction (0–1)',
      '1 for identifiers and manual links, the name similarity otherwise',
    ),
    column('valid_from', 'DATE', null, 'First report date the link held; null when undated'),
    column('valid_to', 'DATE', null, 'Last report date the link held; null while current'),
  ],
  query: (db) =>
    db
      .selectFrom('entity_links')
      .select(['from_id', 'from_kind', 'from_name', 'relation', 'to_id', 'to_kind', 'to_name', 'source'])
      .select(['method', 'confidence', 'valid_from', 'valid_to'])
      .orderBy('relation')
      .orderBy('from_id')
      .orderBy('to_id')
      .orderBy('valid_from'),
};
