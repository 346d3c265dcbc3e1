/**
 * Peer rows: one report date of the institutions in a peer group (peers/groups.ts), with the metric
 * columns asked for; the statistics are computed from them (peers/stats.ts). Institutions without a
 * row in `institutions` still count by size or in a custom set.
 */
import { type Kysely, sql } from 'kysely';
import { prepared } from '../db/prepared.js';
import { readIndex } from '../db/read-indexes.js';
import type { Database } from '../db/tables.js';
import { bandRange, sizeBandOf } from './peers/bands.js';
import { assetsRange, type PeerGroup, type Subject } from './peers/groups.js';
import { type IndexedKind, PeerHistoryIndex } from './peers/history-index.js';

export type PeerRow = { cert: number; report_date: string; total_assets: number | null } & Record<
  string,
  number | string | null
>;

const subjectRow = prepared((db, cert: number) =>
  db.selectFrom('institutions').select(['cert', 'name', 'state', 'charter_class']).where('cert', '=', cert),
);

export async function findSubject(db: Kysely<Database>, cert: number): Promise<Subject | undefined> {
  return (await subjectRow(db, cert))[0];
}

type Membership = Pick<PeerGroup, 'state' | 'charter_class' | 'certs'>;

function grouped(db: Kysely<Database>, group: Membership) {
  let query = db.selectFrom('financials as f').leftJoin('institutions as i', 'i.cert', 'f.cert');
  if (group.state) query = query.where('i.state', '=', group.state);
  if (group.charter_class) query = query.where('i.charter_class', '=', group.charter_class);
  if (group.certs) query = query.where('f.cert', 'in', group.certs);
  return query;
}

/** A size band's bound as the SQL takes it: an infinite one is left out (never bound as a parameter). */
const finite = (bound: number) => (Number.isFinite(bound) ? bound : undefined);

/** from ≤ total assets < below; an undefined bound is left out. */
function assetsWithin(from: number | undefined, below: number | undefined) {
  const parts = [sql<boolean>`f.total_assets is not null`];
  if (from !== undefined) parts.push(sql<boolean>`f.total_assets >= ${from}`);
  if (below !== undefined) parts.push(sql<boolean>`f.total_assets < ${below}`);
  return sql<boolean>`(${sql.join(parts, sql` and `)})`;
}

const columns = (metrics: readonly string[]) => [
  'f.cert' as const,
  'f.report_date' as const,
  'f.total_assets' as const,
  ...metrics.filter((m) => m !== 'total_assets').map((m) => `f.${m}` as const),
];

/** What a peer-rows query's SQL text depends on: which conditions it has, never their values. */
interface Shape {
  readonly state: boolean;
  readonly charter: boolean;
  /** How many certs a custom group lists (null: not a custom group). */
  readonly certs: number | null;
  readonly from: boolean;
  readonly below: boolean;
  readonly metrics: readonly string[];
}

type Value = string | number;
type PeerQuery = (db: Kysely<Database>, ...values: Value[]) => Promise<PeerRow[]>;

/** Compiled peer-rows queries by shape (metrics lists come from URLs: bounded, oldest dropped). */
const peerQueries = new Map<string, PeerQuery>();
const MAX_SHAPES = 256;

/** The query of one shape, compiled once (db/prepared.ts); it takes the shape's values in order. */
function peerQuery(shape: Shape): PeerQuery {
  const key = JSON.stringify(shape);
  let query = peerQueries.get(key);
  if (!query) {
    query = prepared((db, ...values: Value[]) => {
      let at = 0;
      const next = () => values[at++] as never;
      const state = shape.state ? next() : null;
      const charter_class = shape.charter ? next() : null;
      const certs = shape.certs === null ? null : Array.from({ length: shape.certs }, next);
      let built = grouped(db, { state, charter_class, certs }).where('f.report_date', '=', next());
      if (shape.from || shape.below)
        built = built.where(assetsWithin(shape.from ? next() : undefined, shape.below ? next() : undefined));
      return built.select(columns(shape.metrics));
    }) as PeerQuery;
    if (peerQueries.size >= MAX_SHAPES) peerQueries.delete(peerQueries.keys().next().value as string);
    peerQueries.set(key, query);
  }
  return query;
}

/**
 * Every group member's row at `date`. The query is compiled once per shape: Kysely building it on
 * every call was ~10 % of a peers answer (two such queries a request).
 */
export async function peerRows(
  db: Kysely<Database>,
  group: PeerGroup,
  date: string,
  metrics: readonly string[],
): Promise<PeerRow[]> {
  const range = assetsRange(group);
  const from = range ? finite(range.from) : undefined;
  const below = range ? finite(range.below) : undefined;
  // In the order the query takes them; absent conditions bind nothing.
  const values: Value[] = [];
  if (group.state) values.push(group.state);
  if (group.charter_class) values.push(group.charter_class);
  if (group.certs) values.push(...group.certs);
  values.push(date);
  if (from !== undefined) values.push(from);
  if (below !== undefined) values.push(below);
  // biome-ignore format: one shape
  const shape: Shape = { state: !!group.state, charter: !!group.charter_class, certs: group.certs ? group.certs.length : null,
    from: from !== undefined, below: below !== undefined, metrics };
  return peerQuery(shape)(db, ...values);
}

/** The subject's rows, oldest first, with total assets and `metric`. */
export async function subjectHistory(db: Kysely<Database>, cert: number, metric: string): Promise<PeerRow[]> {
  return (await db
    .selectFrom('financials as f')
    .select(columns([metric]))
    .where('f.cert', '=', cert)
    .orderBy('f.report_date', 'asc')
    .execute()) as PeerRow[];
}

/**
 * The group's rows at each of the subject's dates, the size band re-derived at every date from the
 * subject's total assets then (a date whose band is unknown contributes no rows).
 */
export async function peerHistoryRows(
  db: Kysely<Database>,
  group: PeerGroup,
  subject: readonly PeerRow[],
  metric: string,
): Promise<PeerRow[]> {
  const dates = subject.map((row) => row.report_date);
  let query = grouped(db, group).where(sql.ref(`f.${metric}`), 'is not', null);
  if (group.size_band) {
    const windows = subject.flatMap((row) => {
      const band = sizeBandOf(row.total_assets);
      if (band === null) return [];
      const { from, below } = bandRange(band);
      const within = assetsWithin(finite(from), finite(below));
      return [sql<boolean>`(f.report_date = ${row.report_date} and ${within})`];
    });
    if (windows.length === 0) return [];
    query = query.where(sql<boolean>`(${sql.join(windows, sql` or `)})`);
  } else {
    query = query.where('f.report_date', 'in', dates);
  }
  return (await query.select(columns([metric])).execute()) as PeerRow[];
}

/**
 * One metric's peer index of one group kind, read one report date at a time (a whole column at
 * once was 750,000 row objects: ~300 MB of heap for a moment).
 */
async function buildIndex(
  db: Kysely<Database>,
  metric: string,
  kind: IndexedKind,
): Promise<PeerHistoryIndex> {
  const [dates, institutions] = await Promise.all([
    db.selectFrom('financials').select('report_date').distinct().orderBy('report_date').execute(),
    db.selectFrom('institutions').select(['cert', 'state', 'charter_class']).execute(),
  ]);
  const byCert = new Map(institutions.map((i) => [Number(i.cert), i]));
  async function* reports() {
    for (const { report_date } of dates) {
      // Every report, the metric's null ones too: they are the banks' own history.
      const rows = await db
        .selectFrom('financials as f')
        .select(['f.cert', 'f.total_assets', sql.ref<number | null>(`f.${metric}`).as('value')])
        .where('f.report_date', '=', report_date)
        .execute();
      for (const r of rows) {
        // biome-ignore format: one report
        yield { cert: Number(r.cert), report_date, total_assets: r.total_assets === null ? null : Number(r.total_assets), value: r.value === null ? null : Number(r.value) };
      }
    }
  }
  return PeerHistoryIndex.from(kind, reports(), byCert);
}

/**
 * The peer index of `metric` and `kind` (peers/history-index.ts), a read index (db/read-indexes.ts);
 * null when read indexes are off (the history then reads the group's rows instead).
 */
export function peerHistoryIndex(
  db: Kysely<Database>,
  metric: string,
  kind: IndexedKind,
  maxBytes: number,
): Promise<PeerHistoryIndex | null> {
  return readIndex(db, `peers|${metric}|${kind}`, maxBytes, () => buildIndex(db, metric, kind));
}
