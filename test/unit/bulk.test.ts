import { describe, expect, it } from 'vitest';
import { BatchedInsert } from '../../src/db/batched-insert.js';
import { insertRows } from '../../src/db/bulk.js';
import { sqliteBackend, testBackends } from '../helpers/backends.js';

describe.each(testBackends())('insertRows on $name', (backend) => {
  it('inserts rows in batches inside the caller transaction, storing undefined as null', async () => {
    const database = await backend.create();
    try {
      const handle = database.writer;
      const rows = Array.from({ length: 1234 }, (_, i) => ({
        series_id: i % 2 === 0 ? 'A' : 'B',
        date: `2000-01-01+${i}`,
        value: i / 4,
      }));
      await handle.db.transaction().execute(async (trx) => {
        expect(await insertRows(handle, 'macro_observations', rows, trx)).toBe(1234);
        expect(await insertRows(handle, 'macro_observations', [], trx)).toBe(0);
      });
      const count = await handle.db
        .selectFrom('macro_observations')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      expect(Number(count.n)).toBe(1234);
      const last = await handle.db
        .selectFrom('macro_observations')
        .selectAll()
        .where('date', '=', '2000-01-01+1233')
        .executeTakeFirstOrThrow();
      expect(last).toEqual({ series_id: 'B', date: '2000-01-01+1233', value: 308.25 });

      await insertRows(handle, 'macro_series', [
        {
          id: 'X',
          title: 'T',
          units: undefined,
          frequency: 'Daily',
          seasonal_adjustment: null,
          last_updated: null,
        },
      ]);
      const series = await handle.db.selectFrom('macro_series').selectAll().executeTakeFirstOrThrow();
      expect(series.units).toBeNull();
    } finally {
      await database.drop();
    }
  });

  it('rolls back with the caller transaction', async () => {
    const database = await backend.create();
    try {
      const handle = database.writer;
      await expect(
        handle.db.transaction().execute(async (trx) => {
          await insertRows(
            handle,
            'macro_observations',
            [{ series_id: 'A', date: '2000-01-01', value: 1 }],
            trx,
          );
          throw new Error('abort');
        }),
      ).rejects.toThrow('abort');
      const rows = await handle.db.selectFrom('macro_observations').selectAll().execute();
      expect(rows).toEqual([]);
    } finally {
      await database.drop();
    }
  });
});

describe('insertRows on SQLite: the generated statement runner', () => {
  // Names a generated function must quote: quotes, a backslash, a line separator, a template.
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a name that looks like a placeholder, on purpose
  const NAMES = ['plain', 'dou"ble', "sin'gle", 'back\\slash', 'line\u2028sep', '${x}', 'constructor'];

  it('binds every column by name, whatever the names, key order and value types', async () => {
    const database = await sqliteBackend.create();
    try {
      const handle = database.writer;
      const sqlite = handle.sqlite as NonNullable<typeof handle.sqlite>;
      const quoted = (name: string) => `"${name.replace(/"/g, '""')}"`;
      const columns = NAMES.map((name) => `${quoted(name)} integer`).join(', ');
      sqlite.exec(`create table odd (${columns}, blob_value blob, big integer)`);
      const blob = Buffer.from('..payload..').subarray(2, 9);
      const first = Object.fromEntries(NAMES.map((name, i) => [name, i]));
      const rows = [
        { ...first, blob_value: blob, big: 2n ** 60n },
        // Later rows: keys in another order, one missing, one undefined.
        {
          big: 7n,
          blob_value: new Uint8Array([1, 2]),
          ...Object.fromEntries(
            NAMES.slice(1)
              .reverse()
              .map((n) => [n, `${n}!`]),
          ),
          plain: undefined,
        },
      ];
      await handle.db.transaction().execute((trx) => insertRows(handle, 'odd' as never, rows as never, trx));
      const stored = sqlite.prepare('select * from odd order by rowid').safeIntegers(true).all() as Record<
        string,
        unknown
      >[];
      expect(stored[0]).toEqual({
        ...Object.fromEntries(NAMES.map((n, i) => [n, BigInt(i)])),
        blob_value: Buffer.from('payload'),
        big: 2n ** 60n,
      });
      expect(stored[1]).toEqual({
        ...Object.fromEntries(NAMES.map((n) => [n, `${n}!`])),
        plain: null,
        blob_value: Buffer.from([1, 2]),
        big: 7n,
      });
    } finally {
      await database.drop();
    }
  });

  it('refuses an array or an object as a value, naming the column, and inserts nothing', async () => {
    const database = await sqliteBackend.create();
    try {
      const handle = database.writer;
      const good = { series_id: 'A', date: '2000-01-01', value: 1 };
      for (const [bad, kind] of [
        [['GDP'], 'an array'],
        [[], 'an array'],
        [{}, 'an object'],
        [Object.create(null), 'an object'],
      ] as const) {
        const rows = [good, { ...good, date: '2000-01-02', series_id: bad }];
        await expect(
          handle.db
            .transaction()
            .execute((trx) => insertRows(handle, 'macro_observations', rows as never, trx)),
        ).rejects.toThrow(`macro_observations.series_id: ${kind} is not a column value`);
      }
      expect(await handle.db.selectFrom('macro_observations').selectAll().execute()).toEqual([]);
    } finally {
      await database.drop();
    }
  });
});

describe.each(testBackends())('BatchedInsert on $name', (backend) => {
  it('inserts a batch once its packed bytes reach the bound, and the rest on flush', async () => {
    const database = await backend.create();
    try {
      const handle = database.writer;
      const stored = async () => {
        const rows = await handle.db
          .selectFrom('manager_portfolios')
          .select(['cik', 'positions'])
          .orderBy('cik')
          .execute();
        return rows.map((row) => [row.cik, Buffer.from(row.positions).length]);
      };
      const row = (i: number, bytes: number) => ({
        cik: String(i).padStart(10, '0'),
        quarter: '2025-Q4',
        positions: Buffer.alloc(bytes, i),
      });
      const batches = new BatchedInsert(handle, handle.db, 'manager_portfolios', 100);
      await batches.add(row(1, 60), 60);
      expect(await stored()).toEqual([]);
      await batches.add(row(2, 40), 40); // 100 bytes: the batch is written
      expect(await stored()).toEqual([
        ['0000000001', 60],
        ['0000000002', 40],
      ]);
      await batches.add(row(3, 10), 10);
      expect((await stored()).length).toBe(2);
      await batches.flush();
      await batches.flush(); // nothing held: nothing written
      expect(await stored()).toEqual([
        ['0000000001', 60],
        ['0000000002', 40],
        ['0000000003', 10],
      ]);
    } finally {
      await database.drop();
    }
  });
});
