import { Type } from 'typebox';
import {
  cikField,
  cikParam,
  count,
  cusipField,
  issuerField,
  quarterField,
  thousands,
  tickerField,
  weightField,
} from './params.js';

export const OverlapQuery = Type.Object({
  ciks: Type.String({
    description:
      'Comma-separated CIKs of 2 to 5 distinct managers (each 1 to 10 digits, leading zeros optional; duplicates after normalisation count once)',
  }),
});

export const CompareQuery = Type.Object({
  cik1: cikParam('First manager'),
  cik2: cikParam('Second manager (must differ from cik1)'),
});

const ManagerSummary = Type.Object({
  cik: cikField,
  name: Type.String({ description: 'Manager name' }),
  position_count: count('Positions in the quarter compared'),
  total_value: thousands('Portfolio value in the quarter compared'),
});

const holdingValue = thousands(
  'Value of all of the manager’s positions in the CUSIP (options and PRN included)',
);
const holdingShares = Type.Integer({
  description:
    'Shares or principal of all of the manager’s positions in the CUSIP (options count their underlying shares)',
});

export const OverlapSchema = Type.Object({
  quarter: quarterField,
  managers: Type.Array(ManagerSummary, { description: 'The managers compared, in the order given' }),
  shared_positions: Type.Array(
    Type.Object({
      cusip: cusipField,
      issuer: issuerField,
      ticker: tickerField,
      holder_count: count('How many of the managers hold the CUSIP (2 or more)'),
      holders: Type.Array(Type.Object({ cik: cikField, value: holdingValue, shares: holdingShares }), {
        description: 'The managers holding it, by value descending',
      }),
    }),
    {
      description: 'CUSIPs held by at least two of the managers, by holder_count then total value descending',
    },
  ),
  similarity_matrix: Type.Record(Type.String(), Type.Record(Type.String(), Type.Integer()), {
    description:
      '`similarity_matrix[cik1][cik2]` = number of distinct CUSIPs both hold; the diagonal is a manager’s own distinct CUSIP count. Keys are 10-digit CIKs',
  }),
});

export const CompareSchema = Type.Object({
  quarter: quarterField,
  manager1: Type.Object(ManagerSummary.properties, {
    description: 'The first manager (cik1) in the quarter compared',
  }),
  manager2: Type.Object(ManagerSummary.properties, {
    description: 'The second manager (cik2) in the quarter compared',
  }),
  shared_count: count('Distinct CUSIPs both hold'),
  only_in_1_count: count('Distinct CUSIPs only manager 1 holds'),
  only_in_2_count: count('Distinct CUSIPs only manager 2 holds'),
  jaccard: Type.Number({ description: 'shared ÷ (shared + only in 1 + only in 2), 0 to 1' }),
  shared_positions: Type.Array(
    Type.Object({
      cusip: cusipField,
      issuer: issuerField,
      ticker: tickerField,
      value1: holdingValue,
      value2: holdingValue,
      shares1: holdingShares,
      shares2: holdingShares,
      weight1: weightField('Manager 1’s value'),
      weight2: weightField('Manager 2’s value'),
    }),
    { description: 'CUSIPs both hold, by value1 + value2 descending' },
  ),
});
