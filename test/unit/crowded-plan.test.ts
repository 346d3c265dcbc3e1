/**
 * `/api/crowded` reads its page from index security_quarters_crowded alone, in the answer's order
 * (migration 0018): SQLite's plan for the very query the endpoint runs uses the index as a covering
 * one and sorts nothing. On PostgreSQL, the index carries the same key and the shown columns. Both
 * crowded lists name their securities from the security master in memory: the names must be what a
 * join with `securities` gives, null (or an empty issuer) for a CUSIP the master lacks.
 */
import { type KyselyPlugin, type RootOperationNode, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crowded } from '../../src/holdings/analytics.queries.js';
import { crowdedAsOf } from '../../src/holdings/as-of.queries.js';
import { type TestDatabase, testBackends } from '../helpers/backends.js';

/** Captures the operation tree of each query it sees (the rows still come from the database). */
function capture(): KyselyPlugin & { nodes: RootOperationNode[] } {
  const nodes: RootOperationNode[] = [];
  return {
    nodes,
    transformQuery: ({ node }) => {
      nodes.push(node);
      return node;
    },
    transformResult: async ({ result }) => result,
  };
}

describe.each(testBackends())('the crowded page on $name', (backend) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await backend.create();
  });
  afterAll(() => database?.drop());

  it('is read from index security_quarters_crowded, in order', async () => {
    const { db, sqlite } = database.writer;
    if (!sqlite) {
      const { rows } = await sql<{
        indexdef: string;
      }>`select indexdef from pg_indexes where indexname = 'security_quarters_crowded'`.execute(db);
      expect(rows[0]?.indexdef).toMatch(
        /\(quarter, equity_manager_count DESC, equity_value DESC, cusip\) INCLUDE \(issuer, title_of_class, equity_shares\)$/,
      );
      return;
    }
    const plugin = capture();
    await crowded(db.withPlugin(plugin), '2025-Q4', 500);
    const node = plugin.nodes[0] as RootOperationNode;
    const compiled = db.getExecutor().compileQuery(node, { queryId: 'plan' });
    const plan = sqlite
      .prepare(`explain query plan ${compiled.sql}`)
      .all(...compiled.parameters)
      .map((row) => (row as { detail: string }).detail);
    expect(plan.some((step) => step.includes('USING COVERING INDEX security_quarters_crowded'))).toBe(true);
    expect(plan.filter((step) => step.includes('TEMP B-TREE'))).toEqual([]);
  });

  it('names each security as a join with the security master would', async () => {
    const { db } = database.writer;
    const cusips = ['000000AA1', '000000BB2', '000000CC3', '000000DD4'];
    await db
      .insertInto('securities')
      .values([
        { cusip: cusips[0] as string, issuer: 'ALPHA INC', title_of_class: 'COM', ticker: 'ALP' },
        { cusip: cusips[1] as string, issuer: 'BETA CORP', title_of_class: null, ticker: null },
        { cusip: cusips[2] as string, issuer: 'GAMMA LLC', title_of_class: 'CL A', ticker: 'GAM' },
      ])
      .execute();
    // biome-ignore format: one row per security, the master lacks the last
    await db.insertInto('security_quarters').values(cusips.map((cusip, i) => ({
      quarter: '2026-Q3', cusip, issuer: `FILED ${i}`, search_issuer: `filed ${i}`, title_of_class: 'COM',
      holder_count: 10 - i, total_value: 100 * (4 - i), total_shares: 1000, equity_manager_count: i === 1 ? 7 : 9 - i,
      equity_value: 50 * (4 - i), equity_shares: 500 + i }))).execute();
    // biome-ignore format: one row per rank
    await db.insertInto('crowded_days').values(cusips.map((cusip, rank) => ({
      quarter: '2026-Q3', day: '2026-10-20', rank: rank + 1, cusip, manager_count: 9 - rank,
      total_value: 10 * (4 - rank), total_shares: 100 + rank }))).execute();

    const joined = await db
      .selectFrom('security_quarters as q')
      .leftJoin('securities as s', 's.cusip', 'q.cusip')
      .select(['q.cusip', 'q.issuer', 'q.title_of_class', 's.ticker', 'q.equity_manager_count'])
      .where('q.quarter', '=', '2026-Q3')
      .orderBy('q.equity_manager_count', 'desc')
      .orderBy('q.equity_value', 'desc')
      .orderBy('q.cusip')
      .execute();
    const page = await crowded(db, '2026-Q3', 10);
    expect(
      page.map(({ cusip, issuer, title_of_class, ticker }) => ({ cusip, issuer, title_of_class, ticker })),
    ).toEqual(
      joined.map(({ cusip, issuer, title_of_class, ticker }) => ({ cusip, issuer, title_of_class, ticker })),
    );
    expect(page.map((row) => row.ticker)).toEqual(['ALP', null, 'GAM', null]);

    const byDay = await db
      .selectFrom('crowded_days as c')
      .leftJoin('securities as s', 's.cusip', 'c.cusip')
      .select(['c.cusip', 's.issuer', 's.title_of_class', 's.ticker'])
      .where('c.quarter', '=', '2026-Q3')
      .orderBy('c.rank')
      .execute();
    const asOf = await crowdedAsOf(db, '2026-Q3', '2026-10-25', 10);
    expect(
      asOf.map(({ cusip, issuer, title_of_class, ticker }) => ({ cusip, issuer, title_of_class, ticker })),
    ).toEqual(
      byDay.map(({ cusip, issuer, title_of_class, ticker }) => ({
        cusip,
        issuer: issuer ?? '',
        title_of_class: title_of_class ?? null,
        ticker: ticker ?? null,
      })),
    );
    expect(asOf.at(-1)).toMatchObject({ cusip: cusips[3], issuer: '', ticker: null });
  });
});
