/**
 * BackgroundPacking on each backend: a quarter's security positions and holders packed in the
 * compiled packing worker (the CLI's transpiled build) are stored exactly as when packed in this
 * thread, across several 16 MB batches, and each security's positions are its own, in the holders
 * list's order, checked against a plain sort. A job the worker fails, a worker that cannot start or
 * dies mid-job, or the derivation failing with a job out, fails the derivation's transaction, which
 * then leaves nothing behind, and the worker is stopped.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { codeRank, SECURITY_POSITIONS, unpackPositions } from '../../src/holdings/portfolio-pack.js';
import {
  BackgroundPacking,
  withPacking,
} from '../../src/ingest/sources/sec/holdings/derive/background-packing.js';
import { CusipNumbers } from '../../src/ingest/sources/sec/holdings/derive/cusip-numbers.js';
import type { EquityChanges } from '../../src/ingest/sources/sec/holdings/derive/equity-changes.js';
import type { PackKind } from '../../src/ingest/sources/sec/holdings/derive/packers.js';
import { QuarterHolders } from '../../src/ingest/sources/sec/holdings/derive/quarter-holders.js';
import { SecurityPositions } from '../../src/ingest/sources/sec/holdings/derive/security-positions.js';
import { type TestDatabase, testBackends } from '../helpers/backends.js';
import { buildCli } from '../ingest/helpers/cli.js';

const MANAGERS = 1_500;
const PER_MANAGER = 500;
const SECURITIES = 4_000;
const TABLES = ['security_positions', 'holders_by_security', 'security_changes'] as const;

let worker: URL;
beforeAll(async () => {
  const cli = await buildCli();
  worker = pathToFileURL(join(cli, '..', 'ingest/sources/sec/holdings/derive/pack-worker.js'));
}, 180_000);

let database: TestDatabase | undefined;
afterEach(async () => {
  await database?.drop();
  database = undefined;
});

const cikOf = (m: number) => String(1_000_000 + m * 7).padStart(10, '0');
const cusipOf = (s: number) => `S${String(s).padStart(8, '0')}`;

interface Position {
  cik: string;
  security: number;
  code: number;
  value: number;
  shares: number;
}

/** Manager m's positions: distinct securities in ascending order, values with many ties. */
function positionsOf(m: number): Position[] {
  return Array.from({ length: PER_MANAGER }, (_, k) => {
    const security = (m * 13 + k * 8) % SECURITIES;
    return {
      cik: cikOf(m),
      security,
      code: (m + k) % 6,
      value: ((m * 31 + k * 17) % 97) * 1.5,
      shares: m + k / 4,
    };
  }).sort((a, b) => a.security - b.security);
}

/** A quarter's columns of both kinds, gathered as the derivation gathers them. */
function gathered(quarter: string) {
  const positions = new SecurityPositions();
  const numbers = new CusipNumbers();
  const holders = new QuarterHolders(numbers);
  const all: Position[] = [];
  for (let m = 0; m < MANAGERS; m++) {
    const held = positionsOf(m);
    positions.startManager(cikOf(m));
    for (const p of held) positions.add(p.security, p.code, p.value, p.shares);
    holders.add(cikOf(m), changesOf(held, numbers));
    all.push(...held);
  }
  const cusips = Array.from({ length: SECURITIES }, (_, s) => cusipOf(s));
  return { positions: positions.take(quarter, cusips), holders: holders.take(quarter), all };
}

function changesOf(held: readonly Position[], numbers: CusipNumbers): EquityChanges {
  const column = (of: (p: Position) => number) => Float64Array.from(held, of);
  return {
    count: held.length,
    cusips: Int32Array.from(held, (p) => numbers.numberOf(cusipOf(p.security))),
    status: Uint8Array.from(held, (p) => p.code % 5),
    sharesBefore: column((p) => p.shares / 2),
    filedSharesBefore: column((p) => p.shares / 2),
    sharesAfter: column((p) => p.shares),
    valueBefore: column((p) => p.value / 3),
    valueAfter: column((p) => p.value),
    weightBefore: column(() => 0),
    weightAfter: column((p) => p.value / 100),
    splitFactor: column(() => Number.NaN),
  };
}

async function rowsOf(database: TestDatabase, quarter: string) {
  const { db } = database.writer;
  const read = (table: (typeof TABLES)[number]) =>
    db.selectFrom(table).selectAll().where('quarter', '=', quarter).orderBy('cusip').execute();
  // Packed values by their digest: a deep comparison of ~40 MB byte by byte would take minutes.
  const strip = (rows: Record<string, unknown>[]) =>
    rows.map(({ quarter: _, ...row }) =>
      Object.fromEntries(
        Object.entries(row).map(([k, v]) => [
          k,
          v instanceof Uint8Array ? `${v.byteLength}:${createHash('sha1').update(v).digest('hex')}` : v,
        ]),
      ),
    );
  return Object.fromEntries(await Promise.all(TABLES.map(async (t) => [t, strip(await read(t))] as const)));
}

describe.each(testBackends())('BackgroundPacking on $name', (backend) => {
  it('stores from the packing worker exactly what this thread packs, in the holders order', {
    timeout: 180_000,
  }, async () => {
    database = await backend.create();
    const { writer } = database;
    const viaWorker = gathered('2026-Q2');
    const here = gathered('2026-Q3');
    // More than one 16 MB batch of each packed table, so several messages come back per job.
    expect(viaWorker.all.length * (17 + 10)).toBeGreaterThan(16 << 20);
    await writer.db.transaction().execute(async (trx) => {
      const packing = new BackgroundPacking(writer, trx, worker);
      try {
        await packing.pack('security-positions', viaWorker.positions);
        await packing.pack('holders', viaWorker.holders);
        await packing.finish();
      } finally {
        await packing.close();
      }
      const local = new BackgroundPacking(writer, trx, null);
      await local.pack('security-positions', here.positions);
      await local.pack('holders', here.holders);
      await local.finish();
    });
    const fromWorker = await rowsOf(database, '2026-Q2');
    expect(fromWorker).toEqual(await rowsOf(database, '2026-Q3'));

    // Every security's positions are its own, in the holders list's order.
    const bySecurity = new Map<string, Position[]>();
    for (const p of viaWorker.all) {
      const list = bySecurity.get(cusipOf(p.security));
      if (list) list.push(p);
      else bySecurity.set(cusipOf(p.security), [p]);
    }
    const stored = await database.writer.db
      .selectFrom('security_positions')
      .selectAll()
      .where('quarter', '=', '2026-Q2')
      .orderBy('cusip')
      .execute();
    expect(stored.map((row) => row.cusip)).toEqual([...bySecurity.keys()].sort());
    const differing = stored.filter((row) => {
      const want = (bySecurity.get(row.cusip) ?? []).sort(
        (a, b) =>
          b.value - a.value ||
          (a.cik < b.cik ? -1 : a.cik > b.cik ? 1 : 0) ||
          codeRank(a.code) - codeRank(b.code),
      );
      const got = unpackPositions(SECURITY_POSITIONS, row.positions);
      const gotList = Array.from({ length: got.count }, (_, i) => [
        got.key(i),
        got.codes[i],
        got.values[i],
        got.shares[i],
      ]);
      return JSON.stringify(gotList) !== JSON.stringify(want.map((p) => [p.cik, p.code, p.value, p.shares]));
    });
    expect(differing.map((row) => row.cusip)).toEqual([]);
    expect(fromWorker.security_changes).toHaveLength(bySecurity.size);
  });

  it('a job the worker fails, a worker that cannot start or dies, or a failing derivation fails the transaction and leaves nothing', {
    timeout: 120_000,
  }, async () => {
    database = await backend.create();
    const { writer } = database;
    const { positions } = gathered('2026-Q2');
    const other = gathered('2026-Q2').positions;
    await expect(
      writer.db.transaction().execute(async (trx) => {
        const packing = new BackgroundPacking(writer, trx, worker);
        try {
          await packing.pack('security-positions', positions);
          await packing.pack('no-such-kind' as PackKind, other as never);
          await packing.finish();
        } finally {
          await packing.close();
        }
      }),
    ).rejects.toThrow(/is not a function/);

    const broken = join(mkdtempSync(join(tmpdir(), 'regdata-pack-')), 'broken-pack-worker.mjs');
    writeFileSync(broken, "throw new Error('this packing worker cannot start');\n");
    const { holders } = gathered('2026-Q3');
    await expect(
      writer.db.transaction().execute(async (trx) => {
        const packing = new BackgroundPacking(writer, trx, pathToFileURL(broken));
        try {
          await packing.pack('holders', holders);
          await packing.finish();
        } finally {
          await packing.close();
        }
      }),
    ).rejects.toThrow(/cannot start/);

    // A worker that dies in the middle of a job.
    const dying = join(dirname(broken), 'dying-pack-worker.mjs');
    writeFileSync(
      dying,
      "import { parentPort } from 'node:worker_threads';\nparentPort.on('message', () => process.exit(3));\n",
    );
    const third = gathered('2026-Q4');
    await expect(
      writer.db.transaction().execute(async (trx) => {
        const packing = new BackgroundPacking(writer, trx, pathToFileURL(dying));
        try {
          await packing.pack('security-positions', third.positions);
          await packing.finish();
        } finally {
          await packing.close();
        }
      }),
    ).rejects.toThrow(/stopped \(exit code 3\)/);

    // The derivation failing while a job is out: its error, the worker stopped, nothing left behind.
    const fourth = gathered('2026-Q4');
    let handedTo: BackgroundPacking | undefined;
    await expect(
      writer.db.transaction().execute((trx) =>
        withPacking(writer, trx, async (packing) => {
          handedTo = packing;
          await packing.pack('holders', fourth.holders);
          throw new Error('the derivation failed');
        }),
      ),
    ).rejects.toThrow('the derivation failed');
    expect(handedTo?.running).toBe(false);
    for (const table of TABLES)
      expect(await writer.db.selectFrom(table).selectAll().execute(), table).toEqual([]);
  });
});
