/**
 * `/api/securities` answered from the search index in memory (security-search.ts) gives exactly the
 * SQL path's answers (the same app with read indexes off) for generated searches: substrings of real
 * issuer names in any case, tickers as `q` and as `ticker`, CUSIPs, no match, combinations, pages.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { configWith } from '../../src/config.js';
import type { DbHandle } from '../../src/db/connect.js';
import { buildHoldingsDemo } from '../../src/demo/holdings/index.js';
import { DEFAULT_DEMO_SEED } from '../../src/demo/index.js';
import { type TestDatabase, testBackends } from '../helpers/backends.js';

describe.each(testBackends())('security search from the index on $name', (backend) => {
  let database: TestDatabase;
  let reader: DbHandle;
  let indexed: FastifyInstance;
  let unindexed: FastifyInstance;

  beforeAll(async () => {
    database = await backend.create();
    await buildHoldingsDemo(database.writer, { seed: DEFAULT_DEMO_SEED, scale: 'small' });
    reader = database.openReader();
    const config = { logLevel: 'silent', cacheEnabled: false } as const;
    indexed = await buildApp(configWith(config), { handle: reader });
    unindexed = await buildApp(configWith({ ...config, readIndexMaxBytes: 0 }), { handle: reader });
  }, 120_000);
  afterAll(async () => {
    await indexed?.close();
    await unindexed?.close();
    await reader?.close();
    await database?.drop();
  });

  it('answers every generated search exactly as the SQL path does', { timeout: 120_000 }, async () => {
    const listed = await database.writer.db
      .selectFrom('security_latest as l')
      .innerJoin('securities as s', 's.cusip', 'l.cusip')
      .select(['l.cusip', 's.issuer', 's.ticker'])
      .orderBy('l.cusip')
      .execute();
    const searches: string[] = ['q=zzzz-no-such-issuer', 'q=', 'limit=500', 'offset=40&limit=7'];
    listed.forEach((row, i) => {
      if (i % 97 !== 0) return;
      const word = row.issuer.split(/\s+/)[0] ?? row.issuer;
      searches.push(
        `q=${encodeURIComponent(word.slice(0, 3).toLowerCase())}`,
        `q=${encodeURIComponent(word.toUpperCase())}&limit=3&offset=1`,
      );
      searches.push(`cusip=${row.cusip}`, `cusip=${row.cusip.toLowerCase()}&q=${encodeURIComponent(word)}`);
      if (row.ticker)
        searches.push(
          `q=${row.ticker.toLowerCase()}`,
          `ticker=${row.ticker.toLowerCase()}`,
          `ticker=${row.ticker}&q=a`,
        );
    });
    expect(searches.length).toBeGreaterThan(100);
    let found = 0;
    for (const search of searches) {
      const url = `/api/securities?${search}`;
      const [a, b] = await Promise.all([indexed.inject({ url }), unindexed.inject({ url })]);
      expect(a.statusCode, url).toBe(b.statusCode);
      expect(a.body, url).toBe(b.body);
      if (a.statusCode === 200 && JSON.parse(a.body).total > 0) found++;
    }
    expect(found).toBeGreaterThan(50);
  });
});
