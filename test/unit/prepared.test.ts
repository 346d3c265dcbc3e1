/**
 * Queries compiled once (src/db/prepared.ts) answer what the same Kysely query answers when built
 * anew, for every argument, on both backends; a builder that uses an argument other than as one
 * bound value is refused on its first call.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prepared } from '../../src/db/prepared.js';
import { type TestDatabase, testBackends } from '../helpers/backends.js';

const ROWS = [
  { cusip: '000000001', issuer: 'ALPHA INC', title_of_class: 'COM', ticker: 'ALP' },
  { cusip: '000000002', issuer: 'ALPHA INC', title_of_class: 'PFD', ticker: null },
  { cusip: '000000003', issuer: 'BETA CORP', title_of_class: null, ticker: 'BET' },
  { cusip: '000000004', issuer: 'GAMMA LLC', title_of_class: 'COM', ticker: 'GAM' },
];

describe.each(testBackends())('prepared queries on $name', (backend) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await backend.create();
    await database.writer.db.insertInto('securities').values(ROWS).execute();
  });
  afterAll(() => database?.drop());

  // Two arguments around a constant the builder binds itself (the LIMIT), in a different order
  // from the arguments' own.
  const build = (db: TestDatabase['writer']['db'], issuer: string, after: string) =>
    db
      .selectFrom('securities')
      .selectAll()
      .where('cusip', '>', after)
      .where('issuer', '=', issuer)
      .orderBy('cusip', 'desc')
      .limit(2);
  const byIssuer = prepared(build);

  it('answers what the query built anew answers, for every argument', async () => {
    const db = database.writer.db;
    for (const [issuer, after] of [
      ['ALPHA INC', '000000000'],
      ['ALPHA INC', '000000001'],
      ['BETA CORP', '000000000'],
      ['NOBODY', '000000000'],
    ] as const) {
      const expected = await build(db, issuer, after).execute();
      expect(await byIssuer(db, issuer, after), `${issuer} after ${after}`).toEqual(expected);
    }
    expect((await byIssuer(db, 'ALPHA INC', '000000000')).map((r) => r.cusip)).toEqual([
      '000000002',
      '000000001',
    ]);
  });

  it('refuses a builder that uses an argument other than as one bound value', async () => {
    const db = database.writer.db;
    const literal = prepared((db, ticker: string) =>
      db.selectFrom('securities').select('cusip').where('ticker', '=', sql.lit(ticker)),
    );
    await expect(literal(db, 'ALP')).rejects.toThrow(/exactly once as a value/);
    const twice = prepared((db, issuer: string) =>
      db.selectFrom('securities').select('cusip').where('issuer', '=', issuer).where('ticker', '<>', issuer),
    );
    await expect(twice(db, 'ALPHA INC')).rejects.toThrow(/exactly once as a value/);
    const unused = prepared((db, _issuer: string) => db.selectFrom('securities').select('cusip'));
    await expect(unused(db, 'ALPHA INC')).rejects.toThrow(/exactly once as a value/);
    // Changed on the way in: the stand-in comes back altered, and replaying the bare argument would
    // answer another question.
    const pattern = prepared((db, issuer: string) =>
      db.selectFrom('securities').select('cusip').where('issuer', 'like', `${issuer}%`),
    );
    await expect(pattern(db, 'ALPHA')).rejects.toThrow(/exactly once as a value/);
    const shifted = prepared((db, after: number) =>
      db
        .selectFrom('securities')
        .select('cusip')
        .where('cusip', '>', String(after + 1)),
    );
    await expect(shifted(db, 1)).rejects.toThrow(/exactly once as a value/);
    const alsoInside = prepared((db, ticker: string) =>
      db
        .selectFrom('securities')
        .select('cusip')
        .where('ticker', '=', ticker)
        .where('issuer', '<>', `x${ticker}`),
    );
    await expect(alsoInside(db, 'ALP')).rejects.toThrow(/exactly once as a value/);
  });

  it('binds numbers as numbers, and refuses values Kysely would write into the SQL text', async () => {
    const db = database.writer.db;
    const firstN = prepared((db, n: number) =>
      db.selectFrom('securities').select('cusip').orderBy('cusip').limit(n),
    );
    expect((await firstN(db, 3)).map((r) => r.cusip)).toEqual(['000000001', '000000002', '000000003']);
    expect(await firstN(db, 1)).toEqual(
      await db.selectFrom('securities').select('cusip').orderBy('cusip').limit(1).execute(),
    );
    const byTicker = prepared((db, ticker: string | null) =>
      db.selectFrom('securities').select('cusip').where('ticker', '=', ticker),
    );
    await expect(byTicker(db, null)).rejects.toThrow(/strings or numbers/);
  });
});
