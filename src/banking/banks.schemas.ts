import { Type } from 'typebox';
import { pageEnvelopeFields } from '../http/paging.js';
import { enumParam, limitParam, numberParam, offsetParam, searchParam, stateParam } from '../http/params.js';

export const BANK_SORT_FIELDS = ['asset_size', 'name', 'state'] as const;
export const SORT_DIRECTIONS = ['desc', 'asc'] as const;
export const ACTIVE_FILTERS = ['true', 'false', 'all'] as const;

export type BankSortField = (typeof BANK_SORT_FIELDS)[number];
export type SortDirection = (typeof SORT_DIRECTIONS)[number];
export type ActiveFilter = (typeof ACTIVE_FILTERS)[number];

export const BanksQuery = Type.Object({
  q: Type.Optional(searchParam('Institution name search (accents ignored)')),
  state: Type.Optional(stateParam),
  minAssets: Type.Optional(
    numberParam('Minimum total assets (`asset_size`), thousands of USD, inclusive; not above maxAssets'),
  ),
  maxAssets: Type.Optional(numberParam('Maximum total assets (`asset_size`), thousands of USD, inclusive')),
  sortBy: enumParam(
    BANK_SORT_FIELDS,
    'Sort field (ties are broken by `cert` ascending, so pages never overlap; null asset sizes sort last)',
    'asset_size',
  ),
  sortDir: enumParam(SORT_DIRECTIONS, 'Sort direction', 'desc'),
  active: enumParam(
    ACTIVE_FILTERS,
    'Extension: `true` (default) searches institutions that are currently active (FDIC ACTIVE=1), `false` only inactive ones, `all` both',
    'true',
  ),
  limit: limitParam(50, 500),
  offset: offsetParam,
});

const nullableString = (description: string) => Type.Union([Type.String(), Type.Null()], { description });

export const BankRecord = Type.Object({
  cert: Type.Integer({ description: 'FDIC deposit-insurance certificate number' }),
  name: Type.String({ description: 'Institution name' }),
  city: nullableString('City of the main office'),
  state: nullableString('Two-letter USPS state or territory code of the main office'),
  charter_class: nullableString(
    'FDIC charter class code: N (national, OCC), NM (state non-member), SM (state Fed member), SB (savings bank), SI (state savings institution), SL (state savings and loan), OI (insured branch of a foreign bank), …',
  ),
  asset_size: Type.Union([Type.Number(), Type.Null()], {
    description: 'Latest reported total assets, thousands of USD (null when never reported)',
  }),
  established: nullableString('Date the institution was established, YYYY-MM-DD; null when unknown'),
  holding_company: nullableString('Name of the top holding company; null when there is none'),
  active: Type.Boolean({
    description: 'Extension: whether the institution is currently active (FDIC ACTIVE=1)',
  }),
});

export const BanksEnvelope = Type.Object({
  data: Type.Array(BankRecord),
  ...pageEnvelopeFields,
});
