/**
 * Bulk loads: on PostgreSQL insertRows streams COPY on the caller's own transaction connection.
 * Hostile values (tabs, newlines, backslashes, a literal `\N`, quotes, accents, huge integers,
 * nulls) must come back exactly as given, on both backends.
 */
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { insertRows } from '../../src/db/bulk.js';
import { clientOf, copyValue } from '../../src/db/copy.js';
import { testBackends } from '../helpers/backends.js';

const HOSTILE = [
  'tab\there',
  'line\nbreak and\r\ncrlf',
  'back\\slash \\N \\t',
  '\\N',
  'quotes \' " and `',
  'Crédit Agricole — ünïcode ✓',
  '',
];

describe('COPY text encoding', () => {
  it('escapes the characters COPY gives meaning to, and spells NULL \\N', () => {
    expect(copyValue(null)).toBe('\\N');
    expect(copyValue(undefined)).toBe('\\N');
    expect(copyValue('\\N')).toBe('\\\\N');
    expect(copyValue('a\tb\nc\rd\\e')).toBe('a\\tb\\nc\\rd\\\\e');
    expect(copyValue(9007199254740991)).toBe('9007199254740991');
    expect(copyValue(-0.125)).toBe('-0.125');
    // bytea in hex form, its backslash escaped; a view into a larger buffer gives only its own bytes.
    expect(copyValue(Buffer.from([0x01, 0xff, 0x5c]))).toBe('\\\\x01ff5c');
    expect(copyValue(new Uint8Array([9, 8, 7, 6]).subarray(1, 3))).toBe('\\\\x0807');
  });
});

describe.each(testBackends())('bulk load round trip on $name', (backend) => {
  it('stores hostile strings, nulls and large numbers exactly', async () => {
    const database = await backend.create();
    try {
      const handle = database.writer;
      const rows = Array.from({ length: 2500 }, (_, i) => ({
        cert: i + 1,
        name: `${HOSTILE[i % HOSTILE.length]} #${i}`,
        search_name: HOSTILE[(i + 3) % HOSTILE.length] ?? '',
        city: i % 3 === 0 ? null : 'Springfield',
        state: 'IL',
        asset_size: i % 5 === 0 ? null : i * 1234.5678,
        active: i % 2,
        rssd_id: i === 7 ? 9007199254740991 : i,
      }));
      await handle.db.transaction().execute((trx) => insertRows(handle, 'institutions', rows, trx));
      const stored = await handle.db
        .selectFrom('institutions')
        .select(['cert', 'name', 'search_name', 'city', 'state', 'asset_size', 'active', 'rssd_id'])
        .orderBy('cert')
        .execute();
      expect(stored).toEqual(rows);
    } finally {
      await database.drop();
    }
  });

  it.runIf(backend.name === 'postgres')(
    'uses COPY on the transaction’s own connection, invisible to others until commit',
    async () => {
      const database = await backend.create();
      const observer = database.openReader();
      try {
        const handle = database.writer;
        const pool = handle.pgPool;
        if (!pool) throw new Error('expected a PostgreSQL pool');
        await handle.db.transaction().execute(async (trx) => {
          const client = await clientOf(pool, trx);
          const { rows } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(trx);
          expect((client as unknown as { processID: number } | null)?.processID).toBe(rows[0]?.pid);
          await insertRows(
            handle,
            'macro_observations',
            [{ series_id: 'A', date: '2001-01-01', value: 1 }],
            trx,
          );
          const seen = await observer.db.selectFrom('macro_observations').selectAll().execute();
          expect(seen).toEqual([]);
        });
        const after = await observer.db.selectFrom('macro_observations').selectAll().execute();
        expect(after).toEqual([{ series_id: 'A', date: '2001-01-01', value: 1 }]);
      } finally {
        await observer.close();
        await database.drop();
      }
    },
  );
});
