import { Type } from 'typebox';
import { pageEnvelopeFields } from '../http/paging.js';
import { enumParam, limitParam, offsetParam, searchParam } from '../http/params.js';
import {
  asOfParam,
  cikField,
  cikParam,
  count,
  cusipField,
  cusipParam,
  issuerField,
  nullableText,
  putCallField,
  quarterField,
  quarterParam,
  quarterParamWith,
  shareTypeField,
  thousands,
  tickerField,
  weightField,
} from './params.js';

export const HoldingsQuery = Type.Object({
  mode: enumParam(['managers', 'stocks'] as const, 'List managers or securities', 'managers'),
  q: Type.Optional(searchParam('Manager name (mode=managers) or issuer name (mode=stocks without cusip)')),
  cusip: Type.Optional(cusipParam),
  quarter: Type.Optional(quarterParam),
  limit: limitParam(50, 200),
  offset: offsetParam,
});

const managerIdentity = {
  cik: cikField,
  name: Type.String({ description: 'Filing manager name from the latest cover page applied' }),
  city: nullableText('City of the business address'),
  state: nullableText('Two-letter USPS code; null for managers outside the US'),
};

export const ManagerListRecord = Type.Object({
  ...managerIdentity,
  total_value: thousands('Portfolio value (sum of all positions)'),
  position_count: count('Positions after summing rows per (CUSIP, share type, put/call)'),
  filed_at: Type.String({
    description: 'Filing date of the latest filing applied (amendments included), YYYY-MM-DD',
  }),
  form_type: Type.String({ description: '`13F-HR`, or `13F-HR/A` when an amendment was applied last' }),
});

export const HolderRecord = Type.Object({
  ...managerIdentity,
  value: thousands('Value of the position'),
  shares: Type.Integer({
    description: 'Shares (SH) or principal amount in USD (PRN); for options, underlying shares',
  }),
  share_type: shareTypeField,
  put_call: putCallField,
  weight: weightField('Position value'),
});

export const SecurityListRecord = Type.Object({
  cusip: cusipField,
  issuer: issuerField,
  ticker: tickerField,
  title_of_class: nullableText('Title of class (e.g. `COM`, `CL A`)'),
  holder_count: count('Distinct managers with any position in the CUSIP'),
  total_value: thousands('Value of all positions in the CUSIP (options and PRN included)'),
});

export const SecuritySummary = Type.Object({
  ...SecurityListRecord.properties,
  total_shares: Type.Integer({ description: 'Shares held in equity positions (SH without put/call)' }),
});

export const HoldingsEnvelope = Type.Object({
  mode: Type.String({ description: '`managers` or `stocks`' }),
  quarter: quarterField,
  data: Type.Array(Type.Union([ManagerListRecord, HolderRecord, SecurityListRecord])),
  security: Type.Optional(
    Type.Object(SecuritySummary.properties, {
      description: 'mode=stocks with cusip only: the security and its totals for the quarter',
    }),
  ),
  ...pageEnvelopeFields,
});

export const ManagerParams = Type.Object({ cik: cikParam('Manager') });
export const PortfolioQuery = Type.Object({
  quarter: Type.Optional(
    quarterParamWith('the latest quarter this manager filed a 13F-HR for (with `as_of`: by that day)'),
  ),
  as_of: Type.Optional(asOfParam),
});

export const PortfolioHolding = Type.Object({
  cusip: cusipField,
  issuer: issuerField,
  title_of_class: nullableText('Title of class'),
  ticker: tickerField,
  value: thousands('Value of the position'),
  shares: Type.Integer({
    description: 'Shares (SH) or principal amount in USD (PRN); for options, underlying shares',
  }),
  share_type: shareTypeField,
  put_call: putCallField,
  weight: weightField('Position value'),
});

export const PortfolioSchema = Type.Object({
  ...managerIdentity,
  crd: Type.Union([Type.Integer(), Type.Null()], {
    description:
      'CRD number of the Form ADV adviser that is this filer (its 13F cover page names the CRD or SEC file number, or the identity graph links them by name, city and state); null when none is linked',
  }),
  quarter: quarterField,
  filed_at: Type.String({ description: 'Filing date of the latest filing applied, YYYY-MM-DD' }),
  form_type: Type.String({ description: '`13F-HR`, or `13F-HR/A` when an amendment was applied last' }),
  total_value: thousands('Portfolio value'),
  position_count: count('Number of positions'),
  holdings: Type.Array(PortfolioHolding, { description: 'Every position, by value descending' }),
});

export const TimelineSchema = Type.Array(
  Type.Object({
    quarter: quarterField,
    total_value: thousands('Portfolio value'),
    position_count: count('Number of positions'),
    equity_value: thousands('Value of equity positions (SH without put/call)'),
    options_count: count('Number of option positions (with put/call)'),
  }),
  { description: 'One entry per quarter with a 13F-HR, ascending' },
);
