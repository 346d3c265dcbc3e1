/**
 * Packed portfolios (manager_portfolios) on the small demo dataset, on each backend: the portfolio
 * answer written from the pack is byte for byte the answer of the query path (positions joined to
 * the security master, sorted, serialised by JSON.stringify), for every manager quarter of the
 * latest two quarters; the migrate backfill packs exactly what the derivation packed; a database
 * without packs still answers, by the query path.
 */
import { describe, expect, it } from 'vitest';
import { buildHoldingsDemo } from '../../src/demo/holdings/index.js';
import { DEFAULT_DEMO_SEED } from '../../src/demo/index.js';
import { money } from '../../src/holdings/params.js';
import { unpackPortfolio } from '../../src/holdings/portfolio-pack.js';
import { portfolioHoldings } from '../../src/holdings/portfolios.queries.js';
import { backfillManagerPortfolios } from '../../src/ingest/sources/sec/holdings/derive/portfolios.js';
import { useTestApp } from '../helpers/app.js';
import { testBackends } from '../helpers/backends.js';

const DEMO = { seed: DEFAULT_DEMO_SEED, scale: 'small' } as const;

describe.each(testBackends())('packed portfolios on $name', (backend) => {
  // Cache off: the backfill case asks the same URL with and without packs.
  const ctx = useTestApp(backend, (writer) => buildHoldingsDemo(writer, DEMO), { cacheEnabled: false });

  async function packs() {
    const rows = await ctx.database.writer.db
      .selectFrom('manager_portfolios')
      .select(['cik', 'quarter', 'positions'])
      .orderBy('cik')
      .orderBy('quarter')
      .execute();
    return rows.map((row) => ({ ...row, positions: Buffer.from(row.positions).toString('hex') }));
  }

  it('answers every manager quarter exactly as the query path does', async () => {
    const { db } = ctx.database.writer;
    const latestTwo = await db
      .selectFrom('holdings_quarters')
      .select('quarter')
      .orderBy('quarter', 'desc')
      .limit(2)
      .execute();
    const all = await db
      .selectFrom('manager_quarters')
      .selectAll()
      .where(
        'quarter',
        'in',
        latestTwo.map((q) => q.quarter),
      )
      .execute();
    expect(all.length).toBeGreaterThan(500);
    let positions = 0;
    for (const row of all) {
      const response = await ctx.app.inject({ url: `/api/holdings/${row.cik}?quarter=${row.quarter}` });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
      const holdings = await portfolioHoldings(db, row.cik, row.quarter, row.total_value);
      const body = JSON.parse(response.body) as Record<string, unknown>;
      // Every member but the holdings comes from the same manager_quarters row on both paths.
      const expected = JSON.stringify({ ...body, holdings });
      expect(response.body, `${row.cik} ${row.quarter}`).toBe(expected);
      expect(body.total_value).toBe(money(row.total_value));
      positions += holdings.length;
    }
    expect(positions).toBeGreaterThan(10_000);
  });

  it('packs every position of a manager quarter, in the portfolio order', async () => {
    const { db } = ctx.database.writer;
    const row = await db
      .selectFrom('manager_quarters')
      .select(['cik', 'quarter', 'position_count'])
      .orderBy('position_count', 'desc')
      .limit(1)
      .executeTakeFirstOrThrow();
    const { positions } = await db
      .selectFrom('manager_portfolios')
      .select('positions')
      .where('cik', '=', row.cik)
      .where('quarter', '=', row.quarter)
      .executeTakeFirstOrThrow();
    const pack = unpackPortfolio(positions);
    expect(pack.count).toBe(Number(row.position_count));
    const stored = await db
      .selectFrom('positions')
      .select(['cusip', 'value', 'shares'])
      .where('cik', '=', row.cik)
      .where('quarter', '=', row.quarter)
      .execute();
    const byKey = new Map(stored.map((p) => [`${p.cusip}|${Number(p.value)}`, Number(p.shares)]));
    for (let i = 0; i < pack.count; i++) {
      expect(byKey.get(`${pack.cusip(i)}|${pack.values[i]}`)).toBe(pack.shares[i]);
      if (i > 0) expect(pack.values[i]).toBeLessThanOrEqual(pack.values[i - 1] as number);
    }
  });

  it('the migrate backfill packs exactly what the derivation packed', async () => {
    const { writer } = ctx.database;
    const derived = await packs();
    const largest = await writer.db
      .selectFrom('manager_quarters')
      .select('cik')
      .orderBy('quarter', 'desc')
      .orderBy('position_count', 'desc')
      .limit(5)
      .execute();
    const [a, b, c, d, e] = largest.map((row) => row.cik);
    const urls = [
      `/api/overlap?ciks=${a},${b},${c},${d},${e}`,
      `/api/overlap?ciks=${c},${e}`,
      `/api/compare?cik1=${a}&cik2=${b}`,
    ];
    const answer = async (url: string) => {
      const response = await ctx.app.inject({ url });
      expect(response.statusCode, url).toBe(200);
      const body = JSON.parse(response.body);
      // Written piece by piece (comparison.ts), the text is what JSON.stringify prints of its values.
      expect(response.body, url).toBe(JSON.stringify(body));
      return body;
    };
    const fromPacks = await Promise.all(urls.map(answer));
    expect(fromPacks[0].shared_positions.length).toBeGreaterThan(10);
    await writer.db.deleteFrom('manager_portfolios').execute();
    // Without packs the answers come from the positions table, the same.
    expect(await Promise.all(urls.map(answer))).toEqual(fromPacks);
    const cik = derived[0]?.cik as string;
    const before = await ctx.app.inject({ url: `/api/holdings/${cik}` });
    expect(before.statusCode).toBe(200);
    const count = await writer.db.transaction().execute((trx) => backfillManagerPortfolios(writer, trx));
    expect(count).toBe(derived.length);
    expect(await packs()).toEqual(derived);
    // A second backfill finds packs and does nothing.
    expect(await writer.db.transaction().execute((trx) => backfillManagerPortfolios(writer, trx))).toBe(0);
    const after = await ctx.app.inject({ url: `/api/holdings/${cik}` });
    expect(after.body).toBe(before.body);
  });
});
