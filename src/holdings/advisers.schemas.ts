import { Type } from 'typebox';
import { pageEnvelopeFields } from '../http/paging.js';
import { enumParam, limitParam, numberParam, offsetParam, searchParam, stateParam } from '../http/params.js';
import { crdParam, nullableText } from './params.js';

export const ADVISER_SORTS = ['aum', 'name', 'employees'] as const;

export const AdvisersQuery = Type.Object({
  q: Type.Optional(searchParam('Business or legal name of the adviser')),
  state: Type.Optional(stateParam),
  aum_min: Type.Optional(numberParam('Minimum regulatory AUM, USD (inclusive)')),
  aum_max: Type.Optional(numberParam('Maximum regulatory AUM, USD (inclusive)')),
  sort: enumParam(ADVISER_SORTS, 'Sort field; ties and nulls: nulls last, then `crd` ascending', 'aum'),
  order: enumParam(['asc', 'desc'] as const, 'Sort direction', 'desc'),
  limit: limitParam(50, 200),
  offset: offsetParam,
});

export const AdviserParams = Type.Object({ crd: crdParam });

const nullableUsd = (what: string) =>
  Type.Union([Type.Number(), Type.Null()], { description: `${what}, USD; null when not reported` });
const nullableCount = (what: string) =>
  Type.Union([Type.Integer(), Type.Null()], { description: `${what}; null when not reported` });

export const adviserFields = {
  crd: Type.Integer({ description: 'CRD number (FINRA/IARD organisation number): the Form ADV identity' }),
  sec_number: nullableText('SEC file number, `801-NNNNN`'),
  cik: nullableText(
    'SEC CIK as a 10-digit string: the filer whose 13F cover page names this CRD (or, failing that, this SEC file number), latest filing first; on /api/advisers/{crd}, failing both, the 13F filer the identity graph links by name, city and state (docs/identity.md); null otherwise',
  ),
  name: Type.String({ description: 'Primary business name' }),
  legal_name: nullableText('Legal name'),
  city: nullableText('City of the main office'),
  state: nullableText('Two-letter state code of the main office (null outside the US)'),
  country: nullableText('Country of the main office'),
  aum: nullableUsd('Regulatory assets under management (Form ADV 5.F(2)(c))'),
  discretionary_aum: nullableUsd('Discretionary regulatory AUM (Form ADV 5.F(2)(a))'),
  employees: nullableCount('Total employees (Form ADV 5.A)'),
  clients: nullableCount('Number of clients (Form ADV 5.D total)'),
  website: nullableText('Website URL'),
  registration_status: nullableText('SEC registration status (e.g. `Approved`)'),
  latest_filing_date: nullableText('Date of the latest Form ADV filing, YYYY-MM-DD'),
};

export const AdviserRecord = Type.Object(adviserFields);

export const AdviserDetail = Type.Object({
  ...adviserFields,
  address: nullableText('Street address of the main office'),
  phone: nullableText('Main office telephone number'),
  client_breakdown: Type.Object(
    {
      individuals: nullableCount('Individual (non-high-net-worth) clients'),
      high_net_worth: nullableCount('High-net-worth individual clients'),
      investment_companies: nullableCount('Investment companies'),
      pooled_vehicles: nullableCount('Pooled investment vehicles'),
      pension_plans: nullableCount('Pension and profit-sharing plans'),
      other: nullableCount('Other clients'),
    },
    { description: 'Clients by type (Form ADV 5.D)' },
  ),
  private_funds: Type.Object(
    {
      total: nullableCount('Private funds advised (Schedule D 7.B)'),
      hedge_funds: nullableCount('Of which hedge funds'),
      private_equity_funds: nullableCount('Of which private-equity funds'),
    },
    { description: 'Private fund counts where known' },
  ),
});

export const AdvisersEnvelope = Type.Object({ data: Type.Array(AdviserRecord), ...pageEnvelopeFields });
