import { Type } from 'typebox';
import { pageEnvelopeFields } from '../http/paging.js';
import { limitParam, offsetParam, stateParam } from '../http/params.js';

export const FIRST_FAILURE_YEAR = 1934;

export const FailuresQuery = Type.Object({
  state: Type.Optional(stateParam),
  year: Type.Optional(
    Type.String({
      pattern: '^\\d{4}$',
      'x-error': `must be a four-digit year from ${FIRST_FAILURE_YEAR} to the current year`,
      description: `Closing year, YYYY (${FIRST_FAILURE_YEAR} to the current year)`,
    }),
  ),
  limit: limitParam(50, 500),
  offset: offsetParam,
});

const money = (what: string) =>
  Type.Union([Type.Number(), Type.Null()], {
    description: `${what}, thousands of USD; null when not reported`,
  });

export const FailureRecord = Type.Object({
  cert: Type.Union([Type.Integer(), Type.Null()], {
    description: 'FDIC certificate number; null for early failures recorded without one',
  }),
  name: Type.String({ description: 'Institution name' }),
  state: Type.Union([Type.String(), Type.Null()], { description: 'Two-letter state code' }),
  closing_date: Type.String({ description: 'Closing (failure) date, YYYY-MM-DD' }),
  acquiring_institution: Type.Union([Type.String(), Type.Null()], {
    description: 'Acquirer of the deposits; null when deposits were paid out and nobody acquired the bank',
  }),
  city: Type.Union([Type.String(), Type.Null()]),
  resolution_type: Type.Union([Type.String(), Type.Null()], {
    description: 'FDIC resolution transaction type code (e.g. PA purchase and assumption, PO payout)',
  }),
  insurance_fund: Type.Union([Type.String(), Type.Null()], {
    description: 'Insurance fund (e.g. DIF, BIF, SAIF, FSLIC)',
  }),
  total_assets: money('Total assets at failure'),
  total_deposits: money('Total deposits at failure'),
  estimated_loss: money('Estimated loss to the insurance fund'),
});

export const FailuresEnvelope = Type.Object({
  data: Type.Array(FailureRecord),
  ...pageEnvelopeFields,
});
