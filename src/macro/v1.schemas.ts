import { Type } from 'typebox';
import { dateParam, limitParam } from '../http/params.js';
import { MACRO_SERIES, MACRO_SERIES_IDS } from './catalog.js';

export const DEFAULT_MACRO_START = '2010-01-01';

/** `as_of`, shared by both macro endpoints. */
export const asOfParam = dateParam(
  'YYYY-MM-DD: each observation’s value as published on that day (FRED real-time periods, loaded by `regdata ingest fred --vintages`); observations not yet published then are absent. Without it, the latest values',
);

export const MacroQuery = Type.Object({
  series: Type.String({
    maxLength: 500,
    'x-error': 'must be a comma-separated list of series IDs, at most 500 characters',
    description: `Required. Comma-separated FRED series IDs (case-insensitive, trimmed, duplicates ignored): the catalogue's ${MACRO_SERIES_IDS.join(', ')}, and any other series a FRED load stored (\`regdata ingest fred --series ID\`)`,
  }),
  start: Type.String({
    pattern: '^\\d{4}-\\d{2}-\\d{2}$',
    'x-kind': 'date',
    'x-error': 'must be a real calendar date in YYYY-MM-DD form',
    default: DEFAULT_MACRO_START,
    description: `First observation date, YYYY-MM-DD, inclusive; default ${DEFAULT_MACRO_START}; not after \`end\``,
  }),
  end: Type.Optional(
    dateParam('Last observation date, YYYY-MM-DD, inclusive; no default (all up to the latest)'),
  ),
  limit: limitParam(500, 5000),
  as_of: Type.Optional(asOfParam),
});

const SeriesMeta = Type.Object({
  id: Type.String({ description: 'FRED series ID' }),
  title: Type.String({ description: 'Series title' }),
  units: Type.Union([Type.String(), Type.Null()], {
    description:
      'Units of `value`, as FRED labels them (e.g. `Percent`, `Billions of Dollars`, `Index 1982-1984=100`)',
  }),
  frequency: Type.String({ description: 'Observation frequency: Daily, Weekly, Monthly or Quarterly' }),
  seasonal_adjustment: Type.Union([Type.String(), Type.Null()], {
    description: 'FRED seasonal adjustment, e.g. `Seasonally Adjusted`, `Not Seasonally Adjusted`',
  }),
  last_updated: Type.Union([Type.String(), Type.Null()], {
    description: 'When FRED last updated the series (as FRED reports it), or when the demo built it',
  }),
  count: Type.Integer({ description: 'Number of observations in the start–end window (before `limit`)' }),
  truncated: Type.Boolean({
    description:
      'True when the window held more than `limit` observations and only the most recent were returned',
  }),
});

const Observation = Type.Object({
  date: Type.String({
    description: 'Observation date, YYYY-MM-DD (period start for monthly/quarterly series)',
  }),
  value: Type.Number({
    description: "Observation value in the series' `units`; missing upstream values are omitted",
  }),
});

export const SeriesResult = Type.Object({
  meta: SeriesMeta,
  data: Type.Array(Observation, {
    description: 'At most `limit` observations: the most recent ones of the window, in ascending date order',
  }),
});

export const MacroEnvelope = Type.Object({
  series: Type.Object(
    Object.fromEntries(
      MACRO_SERIES.map((s) => [
        s.id,
        Type.Optional(Type.Object(SeriesResult.properties, { description: s.title })),
      ]),
    ),
    {
      description:
        'One entry per requested series, keyed by series ID (a loaded series outside the catalogue too)',
      additionalProperties: SeriesResult,
    },
  ),
});
