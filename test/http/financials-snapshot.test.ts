/**
 * `/api/v1/financials` without `cert` answered from a report date's snapshot in memory
 * (financials-snapshot.ts) gives exactly the SQL path's answers: the same app over the same demo
 * database with read indexes off is the reference. Generated lists (seeded, so a failure repeats):
 * dates, states, filters of every operator on random catalogue fields with thresholds taken from the
 * data, sorts on random fields both ways, `fields=` subsets, pages, CSV.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { FIELD_NAMES } from '../../src/banking/fields/catalogue.js';
import { configWith } from '../../src/config.js';
import type { DbHandle } from '../../src/db/connect.js';
import { buildBankingDemoWith } from '../../src/demo/banking/index.js';
import { DEFAULT_DEMO_SEED } from '../../src/demo/index.js';
import { type TestDatabase, testBackends } from '../helpers/backends.js';

/** A small deterministic generator (mulberry32). */
function random(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe.each(testBackends())('financials lists from the report-date snapshot on $name', (backend) => {
  let database: TestDatabase;
  let reader: DbHandle;
  let indexed: FastifyInstance;
  let unindexed: FastifyInstance;

  beforeAll(async () => {
    database = await backend.create();
    await buildBankingDemoWith(
      database.writer,
      { seed: DEFAULT_DEMO_SEED, scale: 'small' },
      { active: 500, inactive: 100 },
    );
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

  it('answers every generated list exactly as the SQL path does', { timeout: 120_000 }, async () => {
    const next = random(20261125);
    const pick = <T>(items: readonly T[]) => items[Math.floor(next() * items.length)] as T;
    const dates = (
      await database.writer.db
        .selectFrom('financials')
        .select('report_date')
        .distinct()
        .orderBy('report_date')
        .execute()
    ).map((row) => row.report_date);
    const sample = await database.writer.db.selectFrom('financials').selectAll().limit(2000).execute();
    const threshold = (field: string) => {
      const values = sample
        .map((row) => (row as Record<string, unknown>)[field])
        .filter((v) => typeof v === 'number');
      return values.length === 0 ? 0 : (pick(values) as number);
    };
    let compared = 0;
    let nonEmpty = 0;
    for (let i = 0; i < 150; i++) {
      const params = new URLSearchParams();
      if (next() < 0.7)
        params.set('date', pick([dates.at(-1), dates[0], pick(dates), '2030-01-01']) as string);
      if (next() < 0.3) params.set('state', pick(['TX', 'CA', 'NY', 'PR', 'OH']));
      for (let f = Math.floor(next() * 4); f > 0; f--) {
        const field = pick(FIELD_NAMES);
        const op = pick(['gte', 'gt', 'lte', 'lt', 'isnull']);
        params.set(`${field}__${op}`, op === 'isnull' ? pick(['true', 'false']) : String(threshold(field)));
      }
      if (next() < 0.6) params.set('sortBy', pick(FIELD_NAMES));
      if (next() < 0.5) params.set('sortDir', pick(['asc', 'desc']));
      if (next() < 0.5)
        params.set(
          'fields',
          Array.from({ length: 1 + Math.floor(next() * 6) }, () => pick(FIELD_NAMES)).join(','),
        );
      params.set('limit', String(pick([1, 7, 50, 500])));
      if (next() < 0.3) params.set('offset', String(Math.floor(next() * 300)));
      if (next() < 0.15) params.set('format', 'csv');
      const url = `/api/v1/financials?${params}`;
      const [a, b] = await Promise.all([indexed.inject({ url }), unindexed.inject({ url })]);
      expect(a.statusCode, url).toBe(b.statusCode);
      expect(a.headers['content-type'], url).toBe(b.headers['content-type']);
      expect(a.body, url).toBe(b.body);
      compared++;
      if (a.statusCode === 200 && params.get('format') !== 'csv' && JSON.parse(a.body).data.length > 0)
        nonEmpty++;
    }
    expect(compared).toBe(150);
    expect(nonEmpty).toBeGreaterThan(40);
  });
});
