/** `fdic-institutions`: every institution BankFind knows, active and inactive. */

import { type Insertable, sql } from 'kysely';
import { searchKey } from '../../../db/search.js';
import type { InstitutionsTable } from '../../../db/tables.js';
import { FieldError } from '../../core/errors.js';
import type { IngestSource } from '../../core/types.js';
import { deriveFinancialAggregates } from '../../derived/financial-aggregates.js';
import { rebuildEntityLinksOnSwap } from '../../derived/identity/entity-links.js';
import {
  date,
  first,
  integer,
  number,
  requiredText,
  stateCode,
  text,
  type UpstreamRecord,
} from '../values.js';
import { bankFindApiPages, bankFindUrl, inputPages, stageRecords } from './bankfind.js';
import { holdingCompanyOf } from './financials.js';

export const INSTITUTION_FIELDS = [
  'CERT',
  'NAME',
  'CITY',
  'STALP',
  'STNAME',
  'ZIP',
  'BKCLASS',
  'ASSET',
  'ESTYMD',
  'NAMEHCR',
  'RSSDHCR',
  'ACTIVE',
  'ENDEFYMD',
  'FED_RSSD',
  'WEBADDR',
] as const;

function zip(record: UpstreamRecord): string | null {
  const value = text(record, 'ZIP');
  // A numeric ZIP in JSON loses its leading zeros (02110 → 2110).
  return value !== null && /^\d{3,4}$/.test(value) ? value.padStart(5, '0') : value;
}

function active(record: UpstreamRecord, endDate: string | null): number {
  const flag = integer(record, 'ACTIVE');
  if (flag === 0 || flag === 1) return flag;
  if (flag !== null) throw new FieldError('invalid ACTIVE (not 0 or 1)');
  return endDate === null ? 1 : 0;
}

export function toInstitutionRow(record: UpstreamRecord): Insertable<InstitutionsTable> {
  const cert = integer(record, 'CERT');
  if (cert === null) throw new FieldError('missing CERT');
  if (cert < 0) throw new FieldError('invalid CERT (negative)');
  const name = requiredText(record, 'NAME');
  const endDate = date(record, 'ENDEFYMD');
  const parent = holdingCompanyOf(record);
  return {
    cert,
    name,
    search_name: searchKey(name),
    city: text(record, 'CITY'),
    state: stateCode(record, 'STALP', 'STNAME'),
    zip: zip(record),
    charter_class: text(record, 'BKCLASS'),
    asset_size: number(record, 'ASSET'),
    established: date(record, 'ESTYMD'),
    holding_company: parent.name,
    holding_company_rssd: parent.rssd,
    active: active(record, endDate),
    inactive_date: endDate,
    rssd_id: first(record, ['FED_RSSD', 'RSSDID'], integer),
    website: text(record, 'WEBADDR'),
  };
}

export const fdicInstitutions: IngestSource = {
  name: 'fdic-institutions',
  group: 'banking',
  description: 'FDIC BankFind institutions, active and inactive (replaced on every load)',
  async run(ctx) {
    const stager = await ctx.stage({
      table: 'institutions',
      columns: [
        'cert',
        'name',
        'search_name',
        'city',
        'state',
        'zip',
        'charter_class',
        'asset_size',
        'established',
        'holding_company',
        'holding_company_rssd',
        'active',
        'inactive_date',
        'rssd_id',
        'website',
      ],
      key: ['cert'],
      replace: 'all',
      // asset_size is the latest reported total assets: fill it from loaded financials when absent.
      prepare: async (trx, staging) => {
        const latest = sql`select f.total_assets from financials f where f.cert = ${sql.ref(`${staging}.cert`)} and f.total_assets is not null order by f.report_date desc limit 1`;
        await sql`update ${sql.table(staging)} set asset_size = (${latest}) where asset_size is null`.execute(
          trx,
        );
      },
    });
    // State and charter class group the aggregates of every report date.
    ctx.onSwap((trx) => deriveFinancialAggregates(ctx.handle, trx));
    rebuildEntityLinksOnSwap(ctx);
    const query = { endpoint: 'institutions', fields: INSTITUTION_FIELDS, sortBy: 'CERT' } as const;
    const fromApi = ctx.options.from.length === 0;
    if (fromApi) ctx.setUpstream(bankFindUrl(ctx, query, '', 0, 0).split('?')[0]!);
    ctx.progress.start('institutions');
    await stageRecords(
      ctx,
      fromApi ? bankFindApiPages(ctx, query) : inputPages(ctx),
      toInstitutionRow,
      (row) => stager.add(row),
    );
  },
};
