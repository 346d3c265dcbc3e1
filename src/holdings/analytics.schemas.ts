import { type TSchema, Type } from 'typebox';
import { limitParam } from '../http/params.js';
import {
  asOfParam,
  count,
  cusipField,
  issuerField,
  nullableText,
  quarterField,
  quarterParamWith,
  thousands,
  tickerField,
} from './params.js';

export const CrowdedQuery = Type.Object({
  quarter: Type.Optional(
    quarterParamWith('the latest quarter loaded (with `as_of`: the latest with a filing by that day)'),
  ),
  limit: limitParam(50, 100),
  as_of: Type.Optional(asOfParam),
});

export const CrowdedSchema = Type.Object({
  quarter: quarterField,
  limit: Type.Integer({ description: 'The limit applied (after clamping to 100)' }),
  data: Type.Array(
    Type.Object({
      cusip: cusipField,
      issuer: issuerField,
      title_of_class: nullableText('Title of class'),
      ticker: tickerField,
      manager_count: count('Distinct managers with an equity position (SH without put/call)'),
      total_value: thousands('Value of those equity positions'),
      total_shares: Type.Integer({ description: 'Shares in those equity positions' }),
    }),
    { description: 'By manager_count descending, then total_value descending' },
  ),
});

export const SmartMoneyQuery = Type.Object({ limit: limitParam(30, 100) });

const group = (description: string, fields: Record<string, TSchema>) =>
  Type.Array(
    Type.Object({
      cusip: cusipField,
      issuer: issuerField,
      ticker: tickerField,
      ...fields,
    }),
    { description },
  );

export const SmartMoneySchema = Type.Object({
  quarter: quarterField,
  previous_quarter: quarterField,
  quarter_complete: Type.Boolean({
    description:
      'Whether the quarter’s filing season is complete (SPEC §8): ≥ 98 % of the previous quarter’s filers have filed, or the quarter ended more than 75 days ago. Evaluated when the answer is computed (a cached answer keeps it until the next load)',
  }),
  managers_compared: count('Managers with a 13F-HR in both quarters (the only ones counted)'),
  limit: Type.Integer({ description: 'Length cap applied to each group (after clamping to 100)' }),
  new_entries: group('Securities by number of managers that opened an equity position, most first', {
    manager_count: count('Managers that opened a position'),
    value: thousands('Current value of the opened positions'),
  }),
  biggest_inflows: group(
    'Securities by net buying at current prices: Σ (shares now − shares before) × (value now ÷ shares now) over managers holding it now; positive totals only, largest first',
    {
      value_change: thousands('Net buying at current prices'),
      shares_change: Type.Integer({ description: 'Net change in shares held by those managers' }),
      manager_count: count('Managers that added shares'),
    },
  ),
  top_exits: group('Securities by number of managers that closed an equity position, most first', {
    manager_count: count('Managers that closed a position'),
    value: thousands('Previous-quarter value of the closed positions'),
  }),
});
