/**
 * `/api/crowded` reads its page from index security_quarters_crowded alone, in the answer's order
 * (migration 0018): SQLite's plan for the very query the endpoint runs uses the index as a covering
 * one and sorts nothing. On PostgreSQL, the index carries the same key and the shown columns.
 */
import { type KyselyPlugin, type RootOperationNode, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crowded } from '../../src/holdings/analytics.queries.js';
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
});
