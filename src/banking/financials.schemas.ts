import { Type } from 'typebox';
import { pageEnvelopeFields } from '../http/paging.js';
import { dateParam, enumParam, limitParam, offsetParam, stateParam } from '../http/params.js';
import { SORT_DIRECTIONS } from './banks.schemas.js';
import { catalogueProperties } from './fields/schemas.js';

export const FinancialsQuery = Type.Object({
  cert: Type.Optional(
    Type.Integer({
      minimum: 1,
      'x-error': 'must be a positive integer (an FDIC certificate number)',
      description:
        "FDIC certificate number: returns that institution's quarterly history, newest first (with `state`, empty when the institution is elsewhere)",
    }),
  ),
  state: Type.Optional(stateParam),
  date: Type.Optional(
    dateParam(
      'Report date, YYYY-MM-DD. Without `cert`: resolves to the latest report date on or before it (default: the latest); before the first report date → 404. With `cert`: only reports on or before it',
    ),
  ),
  fields: Type.Optional(
    Type.String({
      maxLength: 5000,
      description:
        'Comma-separated catalogue fields (GET /api/v1/fields): records then carry `cert`, `name`, `report_date` and those fields, in that order. Absent: the default record',
    }),
  ),
  sortBy: Type.String({
    maxLength: 100,
    default: 'total_assets',
    description:
      'Without `cert`: any catalogue field to sort by (default `total_assets`); nulls last, ties by `cert` ascending. With `cert` the history stays newest first',
  }),
  sortDir: enumParam(SORT_DIRECTIONS, 'Sort direction of `sortBy`', 'desc'),
  limit: limitParam(20, 500),
  offset: offsetParam,
});

/** OpenAPI text for the filter parameters, which are not enumerated (one family per field). */
export const FILTERS_DESCRIPTION =
  'Filters on any catalogue field, combined with AND: `{field}__gte`, `{field}__gt`, `{field}__lte`, `{field}__lt` (finite numbers, in the field’s unit) and `{field}__isnull=true|false`, e.g. `?tier1_leverage__lt=8&total_assets__gte=1000000`. A null value never matches a comparison; `total` counts the filtered rows. An unknown field or operator, or a bad value, is a 400 naming the parameter (and the nearest field names).';

function pick(names: readonly string[]) {
  return Object.fromEntries(names.map((name) => [name, catalogueProperties[name]!]));
}

/**
 * Without `fields=`: `cert`, `name`, `report_date`, the 11 seed and extension fields and `state`
 * (always present). With `fields=`: `cert`, `name`, `report_date` and the fields asked for.
 */
export const FinancialRecord = Type.Object({
  cert: Type.Integer({ description: 'FDIC certificate number' }),
  name: Type.String({ description: 'Institution name (current)' }),
  report_date: Type.String({ description: 'Quarter-end report date, YYYY-MM-DD' }),
  ...pick(['total_assets', 'total_deposits', 'total_loans', 'roa', 'roe', 'efficiency_ratio', 'npl_ratio']),
  ...pick(['tier1_leverage']),
  state: Type.Optional(
    Type.Union([Type.String(), Type.Null()], {
      description: "Extension: two-letter state code of the institution's main office (default record only)",
    }),
  ),
  ...catalogueProperties,
});

export const FinancialsEnvelope = Type.Object({
  data: Type.Array(FinancialRecord),
  date: Type.Union([Type.String(), Type.Null()], {
    description:
      'YYYY-MM-DD. Without `cert`: the resolved report date. With `cert`: the newest report date returned (on a page past the end, the newest matching one); null only when nothing matches (`cert` outside `state`)',
  }),
  ...pageEnvelopeFields,
});
