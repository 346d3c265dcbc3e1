/** Schema of a bank's profile across the identity graph (SPEC §7). */
import { Type } from 'typebox';
import { HopLink } from '../identity/graph.schemas.js';

const nullableString = (description: string) => Type.Union([Type.String(), Type.Null()], { description });
const thousands = (what: string) => Type.Number({ description: `${what}, thousands of USD (13F values)` });

export const ProfileParams = Type.Object({
  cert: Type.Integer({
    minimum: 0,
    'x-error': 'must be a non-negative integer (an FDIC certificate number)',
    description: 'FDIC certificate number',
  }),
});

export const ProfileSchema = Type.Object({
  bank: Type.Object({
    cert: Type.Integer(),
    name: Type.String(),
    rssd_id: Type.Union([Type.Integer(), Type.Null()], { description: 'Fed RSSD id (FDIC FED_RSSD)' }),
    city: nullableString('City of the main office'),
    state: nullableString('USPS code of the main office'),
    charter_class: nullableString('FDIC charter class'),
    asset_size: Type.Union([Type.Number(), Type.Null()], {
      description: 'Latest total assets, thousands of USD',
    }),
    established: nullableString('YYYY-MM-DD'),
    active: Type.Boolean(),
  }),
  holding_company: Type.Union(
    [
      Type.Object({
        id: Type.String({ description: 'Entity id: `rssd:…`, or `name:…` when FDIC gives only the name' }),
        name: nullableString('FDIC NAMEHCR'),
        rssd_id: Type.Union([Type.Integer(), Type.Null()], {
          description: 'FDIC RSSDHCR; null when only the name is known',
        }),
      }),
      Type.Null(),
    ],
    { description: 'The top holding company today (FDIC institutions record); null when the bank has none' },
  ),
  registrant: Type.Union(
    [
      Type.Object({
        cik: Type.String({ description: '10-digit CIK' }),
        name: Type.String({ description: 'Name as SEC company tickers lists it' }),
        ticker: Type.String({ description: 'Its first listed ticker' }),
        exchange: nullableString('Exchange of that ticker'),
      }),
      Type.Null(),
    ],
    {
      description:
        'The SEC registrant of the top holding company, or the bank’s own when the bank itself is registered; null when none is linked',
    },
  ),
  institutional_ownership: Type.Union(
    [
      Type.Object({
        quarter: Type.String({ description: 'Latest quarter the stock is held in 13F reports' }),
        cusip: Type.String({ description: 'The registrant’s most widely held security' }),
        holder_count: Type.Integer({ description: 'Managers with an equity position' }),
        total_value: thousands('Their value'),
        top_holders: Type.Array(
          Type.Object({
            cik: Type.String(),
            name: Type.String(),
            value: thousands('Position value'),
            shares: Type.Number(),
          }),
          {
            description:
              'The 10 largest positions that are not options (shares, or principal amounts for PRN), by value descending then CIK; a manager holding both appears twice',
          },
        ),
        changes: Type.Union(
          [
            Type.Object({
              new: Type.Integer(),
              added: Type.Integer(),
              reduced: Type.Integer(),
              unchanged: Type.Integer(),
              sold_out: Type.Integer(),
            }),
            Type.Null(),
          ],
          {
            description:
              'How the holders moved from the previous quarter (split-aware, SPEC §6); null for the first quarter',
          },
        ),
      }),
      Type.Null(),
    ],
    {
      description:
        'From 13F holdings of the registrant’s securities; null without a registrant or 13F holders',
    },
  ),
  files_13f: Type.Union(
    [
      Type.Object({
        cik: Type.String(),
        latest_quarter: Type.String(),
        total_value: thousands('Portfolio value'),
      }),
      Type.Null(),
    ],
    {
      description:
        'The registrant’s own 13F filings (same CIK), e.g. a bank’s trust department; null when it files none',
    },
  ),
  links: Type.Array(HopLink, {
    description:
      'The bank’s own links (hops 1): its holding companies over time, its own registration; the graph two links around it is at /api/entities/resolve?id=cert:{cert}',
  }),
});
