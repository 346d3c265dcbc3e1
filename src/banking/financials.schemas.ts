import { Type } from 'typebox';
import { pageEnvelopeFields } from '../http/paging.js';
import { dateParam, limitParam, offsetParam, stateParam } from '../http/params.js';

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
  limit: limitParam(20, 500),
  offset: offsetParam,
});

const amount = (what: string, field: string) =>
  Type.Union([Type.Number(), Type.Null()], {
    description: `${what}, thousands of USD (FDIC \`${field}\`); null when not reported`,
  });

const ratio = (what: string, field: string) =>
  Type.Union([Type.Number(), Type.Null()], {
    description: `${what}, percent (1.05 means 1.05 %; FDIC \`${field}\`); null when not reported`,
  });

export const FinancialRecord = Type.Object({
  cert: Type.Integer({ description: 'FDIC certificate number' }),
  name: Type.String({ description: 'Institution name (current)' }),
  report_date: Type.String({ description: 'Quarter-end report date, YYYY-MM-DD' }),
  total_assets: amount('Total assets', 'ASSET'),
  total_deposits: amount('Total deposits', 'DEP'),
  total_loans: amount('Total loans and leases, gross', 'LNLSGR'),
  roa: ratio('Return on assets, annualised', 'ROA'),
  roe: ratio('Return on equity, annualised', 'ROE'),
  efficiency_ratio: ratio('Efficiency ratio (noninterest expense over revenue)', 'EEFFR'),
  npl_ratio: ratio('Noncurrent loans to total loans', 'NCLNLSR'),
  tier1_leverage: ratio('Tier 1 leverage capital ratio', 'RBC1AAJ'),
  state: Type.Union([Type.String(), Type.Null()], {
    description: "Extension: two-letter state code of the institution's main office",
  }),
  equity_ratio: ratio('Extension: equity capital to assets', 'EQV'),
  loan_to_deposit: ratio('Extension: loans to deposits', 'LNLSDEPR'),
  charge_off_rate: ratio('Extension: net charge-offs to loans, annualised', 'NTLNLSR'),
});

export const FinancialsEnvelope = Type.Object({
  data: Type.Array(FinancialRecord),
  date: Type.Union([Type.String(), Type.Null()], {
    description:
      'YYYY-MM-DD. Without `cert`: the resolved report date. With `cert`: the newest report date returned (on a page past the end, the newest matching one); null only when nothing matches (`cert` outside `state`)',
  }),
  ...pageEnvelopeFields,
});
