import { Type } from 'typebox';
import { count, quarterField, thousands } from './params.js';

/** AUM tiers of /api/stats, by a manager's total 13F portfolio value (bounds in USD). */
export const AUM_TIERS = [
  { tier: '<100M', min: 0, max: 100e6 },
  { tier: '100M-1B', min: 100e6, max: 1e9 },
  { tier: '1B-10B', min: 1e9, max: 10e9 },
  { tier: '10B-100B', min: 10e9, max: 100e9 },
  { tier: '>=100B', min: 100e9, max: null },
] as const;

export const StatsSchema = Type.Object({
  latest_quarter: quarterField,
  quarters: Type.Array(quarterField, { description: 'Every quarter with 13F-HR data, ascending' }),
  total_managers: count('Managers with a 13F-HR (amendments applied) for the latest quarter'),
  total_holdings: count('Positions of those managers in the latest quarter'),
  total_aum: thousands('Sum of those managers’ portfolio values in the latest quarter'),
  total_advisers: count('Registered investment advisers loaded (Form ADV)'),
  state_distribution: Type.Array(
    Type.Object({
      state: Type.String({ description: 'Two-letter USPS code of the manager’s business address' }),
      managers: count('Managers of the latest quarter in that state'),
    }),
    {
      description:
        'US managers of the latest quarter by state, most managers first (non-US managers are not listed)',
    },
  ),
  aum_tiers: Type.Array(
    Type.Object({
      tier: Type.String({
        description: 'Tier label by portfolio value in USD: <100M, 100M-1B, 1B-10B, 10B-100B, >=100B',
      }),
      min_value: thousands('Lower bound (inclusive)'),
      max_value: Type.Union([Type.Number(), Type.Null()], {
        description: 'Upper bound (exclusive), thousands of USD; null for the top tier',
      }),
      managers: count('Managers of the latest quarter in the tier'),
      total_value: thousands('Their summed portfolio value'),
    }),
    { description: 'Latest-quarter managers by portfolio value, smallest tier first' },
  ),
});
