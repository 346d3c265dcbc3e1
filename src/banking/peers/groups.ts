/**
 * Peer groups (SPEC §5): which institutions a bank is compared with at one report date. The group
 * is a value; peers.queries.ts turns it into SQL.
 */
import { notFound } from '../../http/problem.js';
import { bandRange, type SizeBand, sizeBandOf } from './bands.js';

export const GROUP_KINDS = ['size', 'state', 'charter', 'size_state', 'all', 'custom'] as const;
export type GroupKind = (typeof GROUP_KINDS)[number];

export interface PeerGroup {
  readonly kind: GroupKind;
  readonly label: string;
  readonly size_band: SizeBand | null;
  readonly state: string | null;
  readonly charter_class: string | null;
  /** Custom groups: the certs (the subject included). */
  readonly certs: readonly number[] | null;
}

export interface Subject {
  readonly cert: number;
  readonly name: string;
  readonly state: string | null;
  readonly charter_class: string | null;
}

const BAND_LABELS: Record<SizeBand, string> = {
  lt100m: 'under $100 million',
  '100m-300m': '$100 million to $300 million',
  '300m-1b': '$300 million to $1 billion',
  '1b-3b': '$1 billion to $3 billion',
  '3b-10b': '$3 billion to $10 billion',
  '10b-100b': '$10 billion to $100 billion',
  gte100b: '$100 billion or more',
};

function need<T>(value: T | null, what: string, subject: Subject): T {
  if (value === null)
    throw notFound(`Institution ${subject.cert} has no ${what}, so it has no such peer group`);
  return value;
}

/** The group of `subject` whose total assets at the date are `totalAssets`. */
export function peerGroup(
  kind: GroupKind,
  subject: Subject,
  totalAssets: number | null,
  certs: readonly number[] | null,
  date: string,
): PeerGroup {
  const wantsBand = kind === 'size' || kind === 'size_state';
  const band = wantsBand ? need(sizeBandOf(totalAssets), `total assets reported at ${date}`, subject) : null;
  const state = kind === 'state' || kind === 'size_state' ? need(subject.state, 'state', subject) : null;
  const charter = kind === 'charter' ? need(subject.charter_class, 'charter class', subject) : null;
  const members = kind === 'custom' ? [...new Set([subject.cert, ...(certs ?? [])])] : null;
  const parts = [
    band && `total assets ${BAND_LABELS[band]}`,
    state && `in ${state}`,
    charter && `charter class ${charter}`,
  ].filter(Boolean);
  const label =
    kind === 'all'
      ? 'All institutions'
      : kind === 'custom'
        ? `Custom peer set of ${members!.length} institutions`
        : `Institutions with ${parts.join(', ')}`.replace('with in', 'in');
  return { kind, label, size_band: band, state, charter_class: charter, certs: members };
}

/** The band's range of total assets, or null when the group is not by size. */
export function assetsRange(group: PeerGroup): { from: number; below: number } | null {
  return group.size_band ? bandRange(group.size_band) : null;
}
