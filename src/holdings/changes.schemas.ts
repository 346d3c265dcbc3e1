/** Schemas of a manager's quarter-over-quarter changes and its history in one security (SPEC §6). */
import { Type } from 'typebox';
import { pageEnvelopeFields } from '../http/paging.js';
import { enumParam, limitParam, offsetParam } from '../http/params.js';
import {
  asOfParam,
  cikField,
  cikParam,
  count,
  cusipField,
  cusipParam,
  issuerField,
  quarterField,
  quarterParamWith,
  thousands,
  tickerField,
  weightField,
} from './params.js';
import { CHANGE_STATUSES } from './tables.js';

export const statusParam = enumParam(
  CHANGE_STATUSES,
  'Only positions with this status against the previous filed quarter',
);

export const ChangesParams = Type.Object({ cik: cikParam('Manager') });
export const ChangesQuery = Type.Object({
  quarter: Type.Optional(
    quarterParamWith('the latest quarter this manager filed a 13F-HR for (with `as_of`: by that day)'),
  ),
  status: Type.Optional(statusParam),
  as_of: Type.Optional(asOfParam),
  limit: limitParam(100, 1000),
  offset: offsetParam,
});

export const statusField = Type.String({
  description:
    '`new` (held now, not in the previous filed quarter), `added`, `reduced`, `unchanged` (compared on split-adjusted shares; less than one share apart is unchanged), `sold_out` (held then, not now)',
});
export const splitFactorField = Type.Union([Type.Number(), Type.Null()], {
  description:
    'Stock split between the two quarters detected from the holders’ share counts (2 = 2-for-1, 0.1 = 1-for-10 reverse; see docs/holdings-changes.md); null when none',
});
const sharesBefore = Type.Number({
  description:
    'Shares in the previous filed quarter multiplied by split_factor (comparable with shares_after; may carry decimals after a reverse split); 0 when new',
});

export const ChangeRecord = Type.Object({
  cusip: cusipField,
  issuer: issuerField,
  ticker: tickerField,
  status: statusField,
  shares_before: sharesBefore,
  shares_after: Type.Integer({ description: 'Shares now; 0 when sold out' }),
  shares_change: Type.Number({ description: 'shares_after − shares_before (split-adjusted)' }),
  value_before: thousands('Value in the previous filed quarter (0 when new)'),
  value_after: thousands('Value now (0 when sold out)'),
  value_change: thousands('value_after − value_before'),
  weight_before: weightField('Weight in the previous filed quarter'),
  weight_after: weightField('Weight now'),
  split_factor: splitFactorField,
});

export const ChangesSummary = Type.Object(
  {
    new: count('Positions opened'),
    added: count('Positions increased'),
    reduced: count('Positions decreased'),
    unchanged: count('Positions kept at the same (split-adjusted) share count'),
    sold_out: count('Positions closed'),
    value_before: thousands('Equity value in the previous filed quarter (Σ value_before)'),
    value_after: thousands('Equity value now (Σ value_after)'),
  },
  { description: 'Counts by status over all the equity positions compared (not only this page)' },
);

export const ChangesSchema = Type.Object({
  cik: cikField,
  name: Type.String({ description: 'Manager name from the quarter’s latest cover page' }),
  quarter: quarterField,
  quarter_complete: Type.Boolean({
    description:
      'Whether the quarter’s filing season is complete (SPEC §8): ≥ 98 % of the previous quarter’s filers have filed, or the quarter ended more than 75 days ago. Evaluated when the answer is computed (a cached answer keeps it until the next load)',
  }),
  previous_quarter: Type.Union([Type.String(), Type.Null()], {
    description: 'The latest earlier quarter in which the manager filed a 13F-HR; null for its first quarter',
  }),
  summary: ChangesSummary,
  data: Type.Array(ChangeRecord, { description: 'By |value_change| descending, then CUSIP' }),
  ...pageEnvelopeFields,
});

export const PositionParams = Type.Object({ cik: cikParam('Manager'), cusip: cusipParam });
export const PositionHistorySchema = Type.Array(
  Type.Object({
    quarter: quarterField,
    shares: Type.Integer({ description: 'Shares held (0 in a quarter filed without the position)' }),
    value: thousands('Value of the position'),
    weight: weightField('Position value'),
    status: statusField,
  }),
  {
    description:
      'Every quarter the manager filed a 13F-HR since it first held the security (equity position), ascending',
  },
);
