/** Schemas of /api/v1/peers/{cert} and /api/v1/peers/{cert}/history (SPEC §5). */
import { Type } from 'typebox';
import { dateParam, enumParam } from '../http/params.js';
import { METRIC_KEYS } from '../widgets/metrics.js';
import { SIZE_BAND_NAMES } from './peers/bands.js';
import { GROUP_KINDS } from './peers/groups.js';

/** The eight widget metrics (SPEC §2), the default `metrics`. */
export const DEFAULT_PEER_METRICS = METRIC_KEYS;

export const MAX_CUSTOM_CERTS = 1000;

export const PeerParams = Type.Object({
  cert: Type.Integer({
    minimum: 1,
    'x-error': 'must be a positive integer (an FDIC certificate number)',
    description: 'FDIC certificate number of the bank to place among its peers',
  }),
});

const groupParam = enumParam(
  GROUP_KINDS,
  `Peer group: \`size\` (the bank's asset-size band at the date: ${SIZE_BAND_NAMES.join(', ')}), \`state\`, \`charter\` (charter class), \`size_state\`, \`all\`, or \`custom\` with \`certs\``,
  'size',
);

const certsParam = Type.String({
  maxLength: 8000,
  description: `With \`group=custom\`: comma-separated FDIC certificate numbers, 1 to ${MAX_CUSTOM_CERTS} (the bank itself is added when absent)`,
});

export const PeersQuery = Type.Object({
  date: Type.Optional(
    dateParam(
      'Report date, YYYY-MM-DD: resolves to the latest report date on or before it (default: the latest)',
    ),
  ),
  metrics: Type.Optional(
    Type.String({
      maxLength: 5000,
      description: `Comma-separated catalogue fields (GET /api/v1/fields); default ${DEFAULT_PEER_METRICS.join(',')}`,
    }),
  ),
  group: groupParam,
  certs: Type.Optional(certsParam),
});

export const PeerHistoryQuery = Type.Object({
  metric: Type.String({ maxLength: 100, description: 'Required. One catalogue field (GET /api/v1/fields)' }),
  group: groupParam,
  certs: Type.Optional(certsParam),
});

const nullableNumber = (description: string) => Type.Union([Type.Number(), Type.Null()], { description });

const DISTRIBUTION = {
  peer_count: Type.Integer({
    description: 'n: peers with a record and a non-null value at the date, the bank included',
  }),
  min: nullableNumber('Lowest value among the peers'),
  p5: nullableNumber(
    '5th percentile (linear interpolation between closest ranks, as numpy and PERCENTILE.INC)',
  ),
  p25: nullableNumber('25th percentile (same rule)'),
  median: nullableNumber('Median (same rule)'),
  p75: nullableNumber('75th percentile (same rule)'),
  p95: nullableNumber('95th percentile (same rule)'),
  max: nullableNumber('Highest value among the peers'),
  mean: nullableNumber('Arithmetic mean'),
  trimmed_mean: nullableNumber(
    'Mean of the values v with p5 ≤ v ≤ p95; null when no value lies there (exactly two distinct values)',
  ),
};

const STANDING = {
  value: nullableNumber("The bank's value, in the field's unit; null when not reported"),
  rank: Type.Union([Type.Integer(), Type.Null()], {
    description: '1 + peers with a strictly higher value; null when the value is null',
  }),
  percentile: nullableNumber(
    '100 × (below + (equal − 1) / 2) / (n − 1): below = peers strictly lower, equal = peers with an equal value (the bank included); 100 when n = 1; null when the value is null',
  ),
};

export const MetricStanding = Type.Object({ ...STANDING, ...DISTRIBUTION });

const nullableText = (description: string) => Type.Union([Type.String(), Type.Null()], { description });

export const PeersResponse = Type.Object({
  cert: Type.Integer({ description: 'FDIC certificate number' }),
  name: Type.String({ description: 'Institution name (current)' }),
  report_date: Type.String({ description: 'The resolved report date, YYYY-MM-DD' }),
  group: Type.Object({
    kind: Type.String({ description: 'The group asked for' }),
    label: Type.String({ description: 'Human-readable description of the group' }),
    size_band: nullableText('Asset-size band, when the group is by size'),
    state: nullableText('State, when the group is by state'),
    charter_class: nullableText('Charter class, when the group is by charter'),
    count: Type.Integer({ description: 'Institutions of the group with a record at the date' }),
  }),
  metrics: Type.Record(Type.String(), MetricStanding, {
    description: 'One entry per metric asked for, keyed by field name',
  }),
});

export const PeerHistoryResponse = Type.Array(
  Type.Object({
    report_date: Type.String({
      description: 'Report date, YYYY-MM-DD (every report date of the bank, ascending)',
    }),
    value: STANDING.value,
    rank: STANDING.rank,
    percentile: STANDING.percentile,
    peer_count: DISTRIBUTION.peer_count,
    median: DISTRIBUTION.median,
  }),
);
