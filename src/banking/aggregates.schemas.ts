/** Schemas of /api/v1/aggregates (SPEC §5): industry and group statistics per report date. */
import { Type } from 'typebox';
import { dateParam, enumParam } from '../http/params.js';

export const AGGREGATE_GROUPS = ['none', 'state', 'charter_class', 'size_band'] as const;
export type AggregateGroup = (typeof AGGREGATE_GROUPS)[number];

export const DEFAULT_AGGREGATE_METRICS = [
  'total_assets',
  'total_deposits',
  'total_loans',
  'net_income',
  'roa',
];

export const AggregatesQuery = Type.Object({
  date: Type.Optional(
    dateParam(
      'Report date, YYYY-MM-DD: resolves to the latest report date on or before it (default: the latest). Not with `start`/`end`',
    ),
  ),
  start: Type.Optional(
    dateParam('First report date of a window, YYYY-MM-DD, inclusive (every report date in it)'),
  ),
  end: Type.Optional(dateParam('Last report date of a window, YYYY-MM-DD, inclusive')),
  group_by: enumParam(
    AGGREGATE_GROUPS,
    'Grouping: `none` (the industry), `state`, `charter_class` or `size_band` (by total assets at the date); institutions whose state, charter class or total assets are unknown form the group `unknown`',
    'none',
  ),
  metrics: Type.Optional(
    Type.String({
      maxLength: 5000,
      description: `Comma-separated catalogue fields (GET /api/v1/fields); default ${DEFAULT_AGGREGATE_METRICS.join(',')}`,
    }),
  ),
});

const nullableNumber = (description: string) => Type.Union([Type.Number(), Type.Null()], { description });

const Statistics = Type.Object({
  count: Type.Integer({ description: 'Institutions with a non-null value (what every statistic uses)' }),
  sum: Type.Optional(nullableNumber('Sum, thousands of USD (amount fields only)')),
  median: nullableNumber('Median (linear interpolation between closest ranks, as numpy and PERCENTILE.INC)'),
  mean: nullableNumber('Arithmetic mean'),
  p25: Type.Optional(nullableNumber('25th percentile, same rule (fields other than amounts)')),
  p75: Type.Optional(nullableNumber('75th percentile, same rule (fields other than amounts)')),
});

export const AggregatesResponse = Type.Object({
  data: Type.Array(
    Type.Object({
      report_date: Type.String({ description: 'Report date, YYYY-MM-DD' }),
      group: Type.Union([Type.String(), Type.Null()], {
        description: 'The group (state code, charter class, size band or `unknown`); null with group_by=none',
      }),
      institutions: Type.Integer({ description: 'Records of that date and group' }),
      metrics: Type.Record(Type.String(), Statistics, {
        description:
          'Per metric: amount fields (thousands_usd) give sum, median, mean; other fields median, mean, p25, p75; each over the non-null values',
      }),
    }),
  ),
});
