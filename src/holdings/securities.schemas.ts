/** Schemas of the security search, a security's history and its holders (SPEC §6). */
import { Type } from 'typebox';
import { pageEnvelopeFields } from '../http/paging.js';
import { limitParam, offsetParam, searchParam } from '../http/params.js';
import { splitFactorField, statusField, statusParam } from './changes.schemas.js';
import {
  cikField,
  count,
  cusipField,
  cusipParam,
  issuerField,
  nullableText,
  quarterField,
  quarterParam,
  thousands,
  tickerField,
  weightField,
} from './params.js';

export const SecuritySearchQuery = Type.Object({
  q: Type.Optional(
    searchParam('Issuer name, case-insensitive substring; a security whose ticker equals `q` comes first'),
  ),
  ticker: Type.Optional(
    Type.String({
      pattern: '^[A-Za-z0-9.\\-]{1,10}$',
      'x-kind': 'upper',
      'x-error': 'must be a ticker of 1 to 10 letters, digits, dots or hyphens',
      description: 'Exact ticker, case-insensitive (`brk-b` = `BRK-B`)',
    }),
  ),
  cusip: Type.Optional(cusipParam),
  limit: limitParam(50, 500),
  offset: offsetParam,
});

const securityIdentity = {
  cusip: cusipField,
  issuer: issuerField,
  title_of_class: nullableText('Title of class (e.g. `COM`, `CL A`)'),
  ticker: tickerField,
};

export const SecuritySearchRecord = Type.Object({
  ...securityIdentity,
  latest_quarter: quarterField,
  holder_count: count('Managers with an equity position (SH, no put/call) in latest_quarter'),
  total_value: thousands('Value of those equity positions in latest_quarter'),
});

export const SecuritySearchEnvelope = Type.Object({
  data: Type.Array(SecuritySearchRecord, {
    description:
      'Securities held as equity in at least one loaded quarter: ticker matches first, then by total_value descending, then CUSIP',
  }),
  ...pageEnvelopeFields,
});

export const SecurityParams = Type.Object({ cusip: cusipParam });

export const SecurityHistorySchema = Type.Object({
  ...securityIdentity,
  history: Type.Array(
    Type.Object({
      quarter: quarterField,
      holder_count: count('Managers with an equity position (SH, no put/call)'),
      total_shares: Type.Integer({ description: 'Shares in those positions' }),
      total_value: thousands('Value of those positions'),
      new_holders: count(
        'Managers holding it now that did not in their previous filed quarter (first-time filers included)',
      ),
      exited_holders: count(
        'Managers that held it in their previous filed quarter and filed this one without it',
      ),
      split_factor: splitFactorField,
    }),
    { description: 'Every loaded quarter, ascending (zeros where nobody held it)' },
  ),
});

export const HoldersQuery = Type.Object({
  quarter: Type.Optional(quarterParam),
  status: Type.Optional(statusParam),
  limit: limitParam(100, 1000),
  offset: offsetParam,
});

export const HolderChangeRecord = Type.Object({
  cik: cikField,
  name: Type.String({ description: 'Manager name from the quarter’s latest cover page' }),
  shares: Type.Integer({ description: 'Shares held now (0 when sold out)' }),
  value: thousands('Value now (0 when sold out)'),
  weight: weightField('Position value'),
  status: statusField,
  shares_change: Type.Number({
    description: 'Shares now − split-adjusted shares in the previous filed quarter',
  }),
  value_change: thousands('Value now − value in the previous filed quarter'),
});

export const HoldersEnvelope = Type.Object({
  ...securityIdentity,
  quarter: quarterField,
  split_factor: splitFactorField,
  summary: Type.Object(
    {
      new: count('Managers that opened a position'),
      added: count('Managers that added shares'),
      reduced: count('Managers that reduced'),
      unchanged: count('Managers that kept the same split-adjusted share count'),
      sold_out: count('Managers that sold out (held it in their previous filed quarter)'),
    },
    { description: 'Counts by status over every holder (not only this page)' },
  ),
  data: Type.Array(HolderChangeRecord, {
    description: 'By value descending, then CIK; sold-out managers (shares 0) last',
  }),
  ...pageEnvelopeFields,
});
