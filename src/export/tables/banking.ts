/**
 * The banking tables of the export: institutions (with the SEC registrant the identity graph links
 * them to, through their holding company or themselves), financials with every catalogue field,
 * failures, and macro observations with their series' metadata.
 */
import { sql } from 'kysely';
import { FINANCIAL_FIELDS } from '../../banking/fields/catalogue.js';
import type { FieldUnit } from '../../banking/fields/types.js';
import { certId, holdingCompanyId } from '../../ingest/derived/identity/ids.js';
import type { ExportTable } from '../types.js';
import { column, placeholder, THOUSANDS_USD } from './columns.js';
import { registrantsById } from './identity.js';

const UNITS: Record<FieldUnit, string> = { thousands_usd: THOUSANDS_USD, percent: 'percent', count: 'count' };

const INSTITUTION_COLUMNS = [
  column('cert', 'INTEGER', null, 'FDIC certificate number'),
  column('name', 'VARCHAR', null, 'Institution name'),
  column('city', 'VARCHAR', null, 'City'),
  column('state', 'VARCHAR', null, 'Two-letter state code'),
  column('zip', 'VARCHAR', null, 'ZIP code'),
  column('charter_class', 'VARCHAR', null, 'FDIC charter class (N, NM, SM, SB, SA, OI)'),
  column('asset_size', 'DOUBLE', THOUSANDS_USD, 'Latest reported total assets'),
  column('established', 'DATE', null, 'Date established'),
  column('active', 'BOOLEAN', null, 'Currently active (FDIC ACTIVE=1)'),
  column('inactive_date', 'DATE', null, 'Date the institution became inactive'),
  column('rssd_id', 'BIGINT', null, 'Federal Reserve RSSD id'),
  column('website', 'VARCHAR', null, 'Web site'),
  column('holding_company', 'VARCHAR', null, 'Top holding company (FDIC NAMEHCR)'),
  column('holding_company_rssd', 'BIGINT', null, 'Top holding company RSSD (FDIC RSSDHCR)'),
  column(
    'registrant_cik',
    'VARCHAR',
    null,
    'SEC registrant (10-digit CIK) of the holding company, or of the bank itself',
  ),
  column('ticker', 'VARCHAR', null, "The registrant's first ticker (SEC company tickers)"),
] as const;

export const institutions: ExportTable = {
  name: 'institutions',
  table: 'institutions, entity_links, sec_registrants',
  description: 'FDIC-insured institutions, with their top holding company and linked SEC registrant',
  columns: INSTITUTION_COLUMNS,
  query: (db) =>
    db
      .selectFrom('institutions')
      .select(['cert', 'name', 'city', 'state', 'zip', 'charter_class', 'asset_size', 'established'])
      .select(['active', 'inactive_date', 'rssd_id', 'website', 'holding_company', 'holding_company_rssd'])
      .select([placeholder('registrant_cik'), placeholder('ticker')])
      .orderBy('cert'),
  async complete(db) {
    const registrants = await registrantsById(db);
    return (row) => {
      const [cert, , , , , , , , , , , , name, rssd] = row;
      const parent = holdingCompanyId(rssd === null ? null : Number(rssd), name as string | null);
      const registrant = (parent && registrants.get(parent)) || registrants.get(certId(Number(cert)));
      row[14] = registrant?.cik ?? null;
      row[15] = registrant?.ticker ?? null;
      return row;
    };
  },
};

const FINANCIAL_COLUMNS = [
  column('cert', 'INTEGER', null, 'FDIC certificate number'),
  column('report_date', 'DATE', null, 'Report date (quarter end)'),
  ...FINANCIAL_FIELDS.map((field) => column(field.name, 'DOUBLE', UNITS[field.unit], field.title)),
  column('holding_company', 'VARCHAR', null, 'Top holding company at this report date (FDIC NAMEHCR)'),
  column('holding_company_rssd', 'BIGINT', null, 'Its RSSD (FDIC RSSDHCR)'),
  column('source', 'VARCHAR', null, '`fdic`, `ffiec` or `demo`: where the row came from'),
];

export const financials: ExportTable = {
  name: 'financials',
  table: 'financials',
  description: 'Quarterly call-report figures: every field of the catalogue (GET /api/v1/fields)',
  columns: FINANCIAL_COLUMNS,
  query: (db) =>
    db
      .selectFrom('financials')
      .select(FINANCIAL_COLUMNS.map((c) => sql.ref(c.name).as(c.name)))
      .orderBy('cert')
      .orderBy('report_date'),
};

export const failures: ExportTable = {
  name: 'failures',
  table: 'failures',
  description: 'FDIC-insured bank failures since 1934',
  columns: [
    column('cert', 'INTEGER', null, 'FDIC certificate number; null for early failures'),
    column('name', 'VARCHAR', null, 'Institution name'),
    column('city', 'VARCHAR', null, 'City'),
    column('state', 'VARCHAR', null, 'Two-letter state code'),
    column('closing_date', 'DATE', null, 'Closing (failure) date'),
    column('acquiring_institution', 'VARCHAR', null, 'Acquirer of the deposits'),
    column('resolution_type', 'VARCHAR', null, 'FDIC resolution transaction type'),
    column('insurance_fund', 'VARCHAR', null, 'Insurance fund'),
    column('total_assets', 'DOUBLE', THOUSANDS_USD, 'Total assets at failure'),
    column('total_deposits', 'DOUBLE', THOUSANDS_USD, 'Total deposits at failure'),
    column('estimated_loss', 'DOUBLE', THOUSANDS_USD, 'Estimated loss to the insurance fund'),
  ],
  query: (db) =>
    db
      .selectFrom('failures')
      .select(['cert', 'name', 'city', 'state', 'closing_date', 'acquiring_institution', 'resolution_type'])
      .select(['insurance_fund', 'total_assets', 'total_deposits', 'estimated_loss'])
      .orderBy('closing_date')
      .orderBy('id'),
};

export const macroObservations: ExportTable = {
  name: 'macro_observations',
  table: 'macro_observations, macro_series',
  description: 'FRED observations of every loaded series, with the series title, units and frequency',
  columns: [
    column('series_id', 'VARCHAR', null, 'FRED series id'),
    column('date', 'DATE', null, 'Observation date'),
    column('value', 'DOUBLE', 'the series units (column units)', 'Observed value'),
    column('title', 'VARCHAR', null, 'Series title'),
    column('units', 'VARCHAR', null, 'Units of value, as FRED states them'),
    column('frequency', 'VARCHAR', null, 'Frequency'),
    column('seasonal_adjustment', 'VARCHAR', null, 'Seasonal adjustment'),
  ],
  query: (db) =>
    db
      .selectFrom('macro_observations as o')
      .innerJoin('macro_series as s', 's.id', 'o.series_id')
      .select([
        'o.series_id',
        'o.date',
        'o.value',
        's.title',
        's.units',
        's.frequency',
        's.seasonal_adjustment',
      ])
      .orderBy('o.series_id')
      .orderBy('o.date'),
};
