/**
 * Packed changes (changes_by_manager, holders_by_security; migration 0014) on the small demo dataset,
 * on each backend: a page with a status and an offset is exactly that slice of the manager's whole
 * change list (and of the security's whole holder list); the stored values are those of the
 * independent comparison in holdings-changes.test.ts, so here the packing itself: the migrate
 * backfill rebuilds byte for byte what the derivation wrote (also through migration 0014 down and
 * up; down refills the row-per-change table the previous release reads, in the same order), and the
 * codec rejects what is not its format.
 */
import type { FastifyInstance } from 'fastify';
import { Migrator, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { migrateToLatest } from '../../src/db/migrate.js';
import { migrationProvider } from '../../src/db/migrations/index.js';
import { buildHoldingsDemo } from '../../src/demo/holdings/index.js';
import { DEFAULT_DEMO_SEED } from '../../src/demo/index.js';
import {
  MANAGER_CHANGES,
  packChanges,
  SECURITY_HOLDERS,
  unpackChanges,
  writeKey,
} from '../../src/holdings/change-pack.js';
import { fourDecimals } from '../../src/holdings/changes.queries.js';
import { money } from '../../src/holdings/params.js';
import { backfillChanges } from '../../src/ingest/sources/sec/holdings/derive/changes.js';
import { getJson, useTestApp, withAppOn } from '../helpers/app.js';
import { testBackends } from '../helpers/backends.js';

const DEMO = { seed: DEFAULT_DEMO_SEED, scale: 'small' } as const;
const STATUSES = ['new', 'added', 'reduced', 'unchanged', 'sold_out'];

async function json(app: FastifyInstance, url: string) {
  const { status, body } = await getJson(app, url);
  expect(status, url).toBe(200);
  return body;
}

describe.each(testBackends())('packed changes on $name', (backend) => {
  // Cache off: the backfill case asks the same URLs before and after.
  const ctx = useTestApp(backend, (writer) => buildHoldingsDemo(writer, DEMO), { cacheEnabled: false });

  /** Every packed and counted row, as comparable values. */
  async function stored() {
    const { db } = ctx.database.writer;
    const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');
    const managers = await db
      .selectFrom('changes_by_manager')
      .selectAll()
      .orderBy('cik')
      .orderBy('quarter')
      .execute();
    const holders = await db
      .selectFrom('holders_by_security')
      .selectAll()
      .orderBy('quarter')
      .orderBy('cusip')
      .execute();
    return {
      managers: managers.map((row) => ({ ...row, changes: hex(row.changes) })),
      holders: holders.map((row) => ({ ...row, holders: hex(row.holders) })),
      managerCounts: await db
        .selectFrom('manager_changes')
        .selectAll()
        .orderBy('cik')
        .orderBy('quarter')
        .execute(),
      securityCounts: await db
        .selectFrom('security_changes')
        .selectAll()
        .orderBy('cusip')
        .orderBy('quarter')
        .execute(),
      smartMoney: await db.selectFrom('smart_money').selectAll().orderBy('grp').orderBy('rank').execute(),
    };
  }

  async function largestManagers(count: number) {
    const rows = await ctx.database.writer.db
      .selectFrom('manager_quarters')
      .select(['cik', 'quarter'])
      .orderBy('position_count', 'desc')
      .orderBy('cik')
      .limit(count)
      .execute();
    return rows;
  }

  it('a changes page with a status and an offset is that slice of the whole list', async () => {
    let compared = 0;
    for (const { cik, quarter } of await largestManagers(3)) {
      const base = `/api/holdings/${cik}/changes?quarter=${quarter}`;
      const whole = await json(ctx.app, `${base}&limit=1000`);
      expect(whole.data.length).toBe(whole.total);
      expect(whole.total).toBeGreaterThan(100);
      for (const status of STATUSES) {
        const matching = whole.data.filter((row: { status: string }) => row.status === status);
        for (const [offset, limit] of [
          [0, 7],
          [3, 5],
          [matching.length - 2, 10],
          [matching.length + 5, 10],
        ] as const) {
          const page = await json(
            ctx.app,
            `${base}&status=${status}&offset=${Math.max(0, offset)}&limit=${limit}`,
          );
          expect(page.total).toBe(matching.length);
          expect(page.data).toEqual(matching.slice(Math.max(0, offset), Math.max(0, offset) + limit));
          compared++;
        }
      }
      const deep = await json(ctx.app, `${base}&offset=40&limit=9`);
      expect(deep.data).toEqual(whole.data.slice(40, 49));
    }
    expect(compared).toBe(3 * STATUSES.length * 4);
  });

  it('a holders page with a status and an offset is that slice of the whole list', async () => {
    const crowded = (await json(ctx.app, '/api/crowded?limit=2')).data as { cusip: string }[];
    for (const { cusip } of crowded) {
      const base = `/api/securities/${cusip}/holders`;
      const whole = await json(ctx.app, `${base}?limit=1000`);
      expect(whole.data.length).toBeGreaterThan(50);
      for (const status of STATUSES) {
        const matching = whole.data.filter((row: { status: string }) => row.status === status);
        const page = await json(ctx.app, `${base}?status=${status}&offset=2&limit=4`);
        expect(page.data).toEqual(matching.slice(2, 6));
      }
    }
  });

  it('the migrate backfill writes exactly what the derivation wrote', { timeout: 60_000 }, async () => {
    const { writer } = ctx.database;
    const derived = await stored();
    expect(derived.managers.length).toBeGreaterThan(1000);
    expect(derived.holders.length).toBeGreaterThan(1000);
    const [largest] = await largestManagers(1);
    const crowded = (await json(ctx.app, '/api/crowded?limit=1')).data[0].cusip as string;
    const urls = [
      `/api/holdings/${largest?.cik}/changes?limit=50&status=added`,
      `/api/securities/${crowded}/holders?limit=50&offset=10`,
      '/api/smart-money',
    ];
    // Read indexes off, so that every answer reads the stored rows; compared without request ids.
    const answers = () =>
      withAppOn(ctx.database, { readIndexMaxBytes: 0 }, (plain) =>
        Promise.all(
          urls.map(async (url) => {
            const { status, headers, body } = await getJson(plain, url);
            return { status, etag: headers.etag, body };
          }),
        ),
      );
    const before = await answers();
    expect(before.map((answer) => answer.status)).toEqual([200, 200, 200]);
    for (const table of [
      'changes_by_manager',
      'holders_by_security',
      'manager_changes',
      'security_changes',
    ] as const)
      await writer.db.deleteFrom(table).execute();
    // Smart money is left as stored (stored() compares it too).
    expect(await writer.db.transaction().execute((trx) => backfillChanges(writer, trx))).toBe(true);
    expect(await stored()).toEqual(derived);
    // A second backfill finds packed changes and does nothing.
    expect(await writer.db.transaction().execute((trx) => backfillChanges(writer, trx))).toBe(false);
    expect(await answers()).toEqual(before);
  });

  // Last: it takes the schema down and up again.
  it('migration 0014 down refills position_changes as the previous release read it, and up packs the same rows', {
    timeout: 120_000,
  }, async () => {
    const { writer } = ctx.database;
    const derived = await stored();
    const [largest] = await largestManagers(1);
    const { cik, quarter } = largest as { cik: string; quarter: string };
    const crowded = (await json(ctx.app, '/api/crowded?limit=1')).data[0].cusip as string;
    const changes = (await json(ctx.app, `/api/holdings/${cik}/changes?quarter=${quarter}&limit=1000`)).data;
    const holders = (await json(ctx.app, `/api/securities/${crowded}/holders?quarter=${quarter}&limit=1000`))
      .data;
    const migrator = new Migrator({ db: writer.db, provider: migrationProvider });
    const down = await migrator.migrateTo('0013_holders_covering_index');
    expect(down.error).toBeUndefined();
    // Every change is back as a row; the previous release's page queries (order by ordinal; by value
    // after descending, then CIK) read them in the same order with the same figures.
    const { rows: count } = await sql<{ n: number }>`select count(*) as n from position_changes`.execute(
      writer.db,
    );
    const counted = derived.managerCounts.reduce(
      (n, m) =>
        n +
        [m.new_count, m.added_count, m.reduced_count, m.unchanged_count, m.sold_out_count]
          .map(Number)
          .reduce((a, b) => a + b),
      0,
    );
    expect(Number(count[0]?.n)).toBe(counted);
    const { rows: byOrdinal } = await sql<{
      cusip: string;
      status: string;
      value_after: number;
      weight_before: number;
    }>`
      select cusip, status, value_after, weight_before from position_changes
      where cik = ${cik} and quarter = ${quarter} order by ordinal`.execute(writer.db);
    expect(
      byOrdinal.map((row) => [
        row.cusip,
        row.status,
        money(Number(row.value_after)),
        fourDecimals(Number(row.weight_before)),
      ]),
    ).toEqual(
      changes.map((row: { cusip: string; status: string; value_after: number; weight_before: number }) => [
        row.cusip,
        row.status,
        row.value_after,
        row.weight_before,
      ]),
    );
    const { rows: byValue } = await sql<{ cik: string; status: string; shares_after: number }>`
      select cik, status, shares_after from position_changes
      where quarter = ${quarter} and cusip = ${crowded} order by value_after desc, cik`.execute(writer.db);
    expect(byValue.map((row) => [row.cik, row.status, Number(row.shares_after)])).toEqual(
      holders.map((row: { cik: string; status: string; shares: number }) => [
        row.cik,
        row.status,
        row.shares,
      ]),
    );
    expect(await migrateToLatest(writer)).toContain('0014_packed_changes');
    expect(await stored()).toEqual(derived);
  });
});

describe('change-pack codec', () => {
  const rows = {
    count: 3,
    head: [1500.5, 2000],
    numbers: (c: number, into: Float64Array) => {
      for (let i = 0; i < 3; i++) into[i] = c === 4 && i === 1 ? Number.NaN : c * 1000 + i + 0.25;
    },
    statuses: (into: Uint8Array) => into.set([0, 3, 4]),
    keys: (into: Buffer) => {
      for (const [i, key] of ['037833100', '594918104', '88160R101'].entries()) writeKey(key, 9, into, 9 * i);
    },
  };

  it('reads back what it wrote, from aligned and unaligned bytes', () => {
    const packed = packChanges(MANAGER_CHANGES, rows);
    // An odd offset into a larger buffer, as a driver may hand a stored value over.
    const unaligned = new Uint8Array(packed.length + 3).subarray(3);
    unaligned.set(packed);
    for (const bytes of [packed, unaligned]) {
      const read = unpackChanges(MANAGER_CHANGES, bytes);
      expect(read.count).toBe(3);
      expect([...read.head]).toEqual([1500.5, 2000]);
      expect([...read.column(2)]).toEqual([2000.25, 2001.25, 2002.25]);
      expect(Number.isNaN(read.column(4)[1] as number)).toBe(true);
      expect([0, 1, 2].map((i) => read.status(i))).toEqual(['new', 'unchanged', 'sold_out']);
      expect([0, 1, 2].map((i) => read.key(i))).toEqual(['037833100', '594918104', '88160R101']);
    }
  });

  it('stores a column whose rows all hold one value once, and reads it back in full', () => {
    const n = 4;
    const columns = [
      [0, 0, 0, 0], // nothing before: a first quarter
      [10, 20, 30, 40],
      [-0, -0, -0, -0], // −0 is kept apart from 0
      [5, 5, 5, -0], // not constant: −0 differs from 5
      [Number.NaN, Number.NaN, Number.NaN, Number.NaN], // no split factor
    ];
    const packed = packChanges(MANAGER_CHANGES, {
      count: n,
      head: [1, 2],
      numbers: (c, into) => into.set(columns[c] as number[]),
      statuses: (into) => into.fill(0),
      keys: (into) => {
        for (let i = 0; i < n; i++) writeKey(`03783310${i}`, 9, into, 9 * i);
      },
    });
    // 16-byte header, 2 head values, 3 constant columns once, 2 in full, then statuses and keys.
    expect(packed.length).toBe(16 + 8 * (2 + 3 + 2 * n) + n * (1 + 9));
    const read = unpackChanges(MANAGER_CHANGES, packed);
    columns.forEach((values, c) => {
      const got = [...read.column(c)];
      expect(got.length).toBe(n);
      for (const [i, value] of got.entries())
        expect(Object.is(value, values[i]), `column ${c} row ${i}`).toBe(true);
    });
    expect(read.column(0)).toBe(read.column(0)); // filled out once
  });

  it('reads values written in the earlier layout (no constants word, every column in full)', () => {
    const n = 2;
    const full = Buffer.alloc(8 + 8 * (2 + 5 * n) + n * (1 + 9));
    full.writeUInt32LE(n, 0);
    full.writeUInt32LE(MANAGER_CHANGES.fullFormat, 4);
    const doubles = new Float64Array(full.buffer, full.byteOffset + 8, 2 + 5 * n);
    doubles.set([100, 200]);
    for (let c = 0; c < 5; c++) for (let i = 0; i < n; i++) doubles[2 + n * c + i] = c * 10 + i;
    const statusesAt = 8 + 8 * (2 + 5 * n);
    full.set([1, 2], statusesAt);
    full.write('037833100594918104', statusesAt + n, 'latin1');
    const read = unpackChanges(MANAGER_CHANGES, full);
    expect([...read.head]).toEqual([100, 200]);
    expect([...read.column(3)]).toEqual([30, 31]);
    expect([read.status(0), read.status(1)]).toEqual(['added', 'reduced']);
    expect([read.key(0), read.key(1)]).toEqual(['037833100', '594918104']);
  });

  it('rejects another layout, a truncated value and a key of the wrong width', () => {
    const packed = packChanges(MANAGER_CHANGES, rows);
    expect(() => unpackChanges(SECURITY_HOLDERS, packed)).toThrow(/format 4 \(format 3,/);
    expect(() => unpackChanges(MANAGER_CHANGES, packed.subarray(0, packed.length - 1))).toThrow(
      /bytes for 3 rows/,
    );
    expect(() =>
      packChanges(MANAGER_CHANGES, { ...rows, keys: (into) => writeKey('0378331', 9, into, 0) }),
    ).toThrow(/not 9 characters/);
  });
});
