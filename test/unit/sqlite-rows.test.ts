import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { withFastRows } from '../../src/db/sqlite-rows.js';

function fixture() {
  const sqlite = new Database(':memory:');
  sqlite.exec(`
    create table t (id integer primary key, name text, value real, big integer, blob blob);
    insert into t values (1, 'a', 1.5, 9007199254740991, x'0102'), (2, null, null, -3, null);
  `);
  return { sqlite, fast: withFastRows(sqlite) };
}

describe('SQLite rows built from arrays', () => {
  it('gives the same objects as better-sqlite3 itself, keys in the same order', () => {
    const { sqlite, fast } = fixture();
    for (const sql of [
      'select * from t order by id',
      'select name, id as "x y", value * 2 as v2, blob from t order by id desc',
      'select 2 as constructor, 3 as "a""b", 4 as toString',
      'select t.id, u.id from t join t as u on u.id = t.id',
      'select * from t where 0',
    ]) {
      const mine = fast.prepare(sql).all([]);
      const theirs = sqlite.prepare(sql).all();
      expect(mine, sql).toEqual(theirs);
      expect(
        mine.map((row) => Object.keys(row as object)),
        sql,
      ).toEqual(theirs.map((row) => Object.keys(row as object)));
    }
    // Unlike better-sqlite3's own objects (which drop it), a `__proto__` column is an own property.
    const proto = fast.prepare('select 1 as "__proto__"').all([])[0] as object;
    expect(Object.getPrototypeOf(proto)).toBe(Object.prototype);
    expect(Object.keys(proto)).toEqual(['__proto__']);
  });

  it('binds parameters, iterates, and leaves writes alone', () => {
    const { fast } = fixture();
    expect(fast.prepare('select id from t where id > ?').all([1])).toEqual([{ id: 2 }]);
    expect([...fast.prepare('select id, name from t order by id').iterate([])]).toEqual([
      { id: 1, name: 'a' },
      { id: 2, name: null },
    ]);
    const insert = fast.prepare('insert into t (id, name) values (?, ?)');
    expect(insert.reader).toBe(false);
    expect(insert.run([3, 'c'])).toMatchObject({ changes: 1, lastInsertRowid: 3 });
    expect(fast.prepare('insert into t (id) values (4) returning id, name').all([])).toEqual([
      { id: 4, name: null },
    ]);
  });

  it('follows a statement re-prepared after a schema change', () => {
    const { sqlite, fast } = fixture();
    const select = fast.prepare('select * from t where id = 1');
    expect(Object.keys(select.all([])[0] as object)).toEqual(['id', 'name', 'value', 'big', 'blob']);
    sqlite.exec('alter table t add column extra text');
    expect(select.all([])[0]).toMatchObject({ id: 1, extra: null });
  });

  it('prepares each SQL text once, and a fresh statement while the kept one is being iterated', () => {
    const { sqlite, fast } = fixture();
    let prepares = 0;
    const prepare = sqlite.prepare.bind(sqlite);
    sqlite.prepare = ((text: string) => {
      prepares++;
      return prepare(text);
    }) as typeof sqlite.prepare;
    const sql = 'select id from t order by id';
    expect(fast.prepare(sql).all([])).toEqual([{ id: 1 }, { id: 2 }]);
    expect(fast.prepare(sql).all([])).toEqual([{ id: 1 }, { id: 2 }]);
    expect(prepares).toBe(1);
    // An iteration in progress holds its statement: the same text inside it gets its own.
    const seen: unknown[] = [];
    for (const row of fast.prepare(sql).iterate([])) seen.push(row, fast.prepare(sql).all([]).length);
    expect(seen).toEqual([{ id: 1 }, 2, { id: 2 }, 2]);
    expect(prepares).toBe(3);
  });

  it('a kept statement follows a schema change too (a new column through `select *`)', () => {
    const { sqlite, fast } = fixture();
    const sql = 'select * from t where id = 2';
    expect(Object.keys(fast.prepare(sql).all([])[0] as object)).toHaveLength(5);
    sqlite.exec('alter table t add column extra text');
    sqlite.exec("update t set extra = 'x' where id = 2");
    expect(fast.prepare(sql).all([])[0]).toMatchObject({ id: 2, extra: 'x' });
    expect([...fast.prepare(sql).iterate([])][0]).toMatchObject({ id: 2, extra: 'x' });
  });
});
