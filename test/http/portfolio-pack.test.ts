/**
 * The two packed stores of the derived positions on the small demo dataset, on each backend:
 * `manager_portfolios` (a manager quarter's positions) and `security_positions` (a security
 * quarter's). Each holds every position the other does (checked position for position); the
 * portfolio answer written from a pack is byte for byte what JSON.stringify prints of the positions
 * read from the other store, joined to the security master and sorted here, for every manager quarter
 * of the latest two quarters; the migrate backfills (portfolios from a `positions` table, security
 * positions from the portfolios) pack exactly what the derivation packed.
 */
import { Migrator } from 'kysely';
import { describe, expect, it } from 'vitest';
import { insertRows } from '../../src/db/bulk.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { migrationProvider } from '../../src/db/migrations/index.js';
import { buildHoldingsDemo } from '../../src/demo/holdings/index.js';
import { DEFAULT_DEMO_SEED } from '../../src/demo/index.js';
import { money, percent } from '../../src/holdings/params.js';
import { codeRank, putCallOf, shareTypeOf, unpackPortfolio } from '../../src/holdings/portfolio-pack.js';
import { backfillManagerPortfolios } from '../../src/ingest/sources/sec/holdings/derive/portfolios.js';
import { backfillSecurityPositions } from '../../src/ingest/sources/sec/holdings/derive/security-positions-backfill.js';
import { useTestApp } from '../helpers/app.js';
import { testBackends } from '../helpers/backends.js';
import { type PositionRow, storedPositions } from '../helpers/positions.js';

const DEMO = { seed: DEFAULT_DEMO_SEED, scale: 'small' } as const;

describe.each(testBackends())('packed positions on $name', (backend) => {
  // Cache off: the backfill case asks the same URL with and without packs.
  const ctx = useTestApp(backend, (writer) => buildHoldingsDemo(writer, DEMO), { cacheEnabled: false });

  async function packs(table: 'manager_portfolios' | 'security_positions') {
    const key = table === 'manager_portfolios' ? 'cik' : 'cusip';
    const rows = await ctx.database.writer.db
      .selectFrom(table)
      .select(['quarter', 'positions', key])
      .orderBy('quarter')
      .orderBy(key)
      .execute();
    return rows.map((row) => ({ ...row, positions: Buffer.from(row.positions).toString('hex') }));
  }

  it('answers every manager quarter as its positions in the security store, joined and sorted here', async () => {
    const { db } = ctx.database.writer;
    const latestTwo = await db
      .selectFrom('holdings_quarters')
      .select('quarter')
      .orderBy('quarter', 'desc')
      .limit(2)
      .execute();
    const master = new Map(
      (await db.selectFrom('securities').selectAll().execute()).map((s) => [s.cusip, s]),
    );
    let positions = 0;
    for (const { quarter } of latestTwo) {
      const byManager = new Map<string, PositionRow[]>();
      for (const p of await storedPositions(db, { quarter })) {
        const held = byManager.get(p.cik);
        if (held) held.push(p);
        else byManager.set(p.cik, [p]);
      }
      const managers = await db
        .selectFrom('manager_quarters')
        .selectAll()
        .where('quarter', '=', quarter)
        .execute();
      expect(managers.length).toBeGreaterThan(250);
      for (const row of managers) {
        const response = await ctx.app.inject({ url: `/api/holdings/${row.cik}?quarter=${quarter}` });
        expect(response.statusCode).toBe(200);
        expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
        const held = (byManager.get(row.cik) ?? []).filter((p) => master.has(p.cusip));
        held.sort(
          (a, b) =>
            b.value - a.value ||
            (a.cusip < b.cusip ? -1 : a.cusip > b.cusip ? 1 : 0) ||
            codeRank(a.code) - codeRank(b.code),
        );
        const holdings = held.map((p) => {
          const security = master.get(p.cusip);
          return {
            cusip: p.cusip,
            issuer: security?.issuer,
            title_of_class: security?.title_of_class,
            ticker: security?.ticker ?? null,
            value: money(p.value),
            shares: p.shares,
            share_type: p.share_type,
            put_call: p.put_call,
            weight: percent(p.value, row.total_value),
          };
        });
        const body = JSON.parse(response.body) as Record<string, unknown>;
        // Every member but the holdings comes from the same manager_quarters row on both paths.
        expect(response.body, `${row.cik} ${quarter}`).toBe(JSON.stringify({ ...body, holdings }));
        expect(body.total_value).toBe(money(row.total_value));
        expect(body.position_count).toBe((byManager.get(row.cik) ?? []).length);
        positions += holdings.length;
      }
    }
    expect(positions).toBeGreaterThan(10_000);
  });

  it('packs every position of a manager quarter in the portfolio order, as the security store holds them', async () => {
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
    const stored = await storedPositions(db, { quarter: row.quarter, cik: row.cik });
    expect(stored).toHaveLength(pack.count);
    const byKey = new Map(stored.map((p) => [`${p.cusip}|${p.code}`, p]));
    for (let i = 0; i < pack.count; i++) {
      const p = byKey.get(`${pack.cusip(i)}|${pack.codes[i]}`);
      expect(p?.value).toBe(pack.values[i]);
      expect(p?.shares).toBe(pack.shares[i]);
      if (i > 0) expect(pack.values[i]).toBeLessThanOrEqual(pack.values[i - 1] as number);
    }
  });

  it('lists the holders of the most held securities as the manager store holds them, page by page', async () => {
    const { db } = ctx.database.writer;
    const { quarter } = await db
      .selectFrom('holdings_quarters')
      .select('quarter')
      .orderBy('quarter', 'desc')
      .executeTakeFirstOrThrow();
    const top = await db
      .selectFrom('security_quarters')
      .select('cusip')
      .where('quarter', '=', quarter)
      .orderBy('holder_count', 'desc')
      .orderBy('cusip')
      .limit(3)
      .execute();
    const managers = await db
      .selectFrom('manager_quarters')
      .selectAll()
      .where('quarter', '=', quarter)
      .execute();
    const portfolios = await db
      .selectFrom('manager_portfolios')
      .select(['cik', 'positions'])
      .where('quarter', '=', quarter)
      .execute();
    for (const { cusip } of top) {
      // Every manager's positions in the CUSIP, from its portfolio, sorted here.
      const expected = portfolios.flatMap(({ cik, positions }) => {
        const pack = unpackPortfolio(positions);
        const manager = managers.find((m) => m.cik === cik);
        return Array.from({ length: pack.count }, (_, i) => i)
          .filter((i) => pack.cusip(i) === cusip)
          .map((i) => ({
            manager,
            code: pack.codes[i] as number,
            value: pack.values[i] as number,
            shares: pack.shares[i] as number,
          }));
      });
      expected.sort(
        (a, b) =>
          b.value - a.value ||
          ((a.manager?.cik as string) < (b.manager?.cik as string) ? -1 : 1) ||
          codeRank(a.code) - codeRank(b.code),
      );
      expect(expected.length).toBeGreaterThan(60);
      const listed: unknown[] = [];
      for (let offset = 0; offset < expected.length; offset += 60) {
        const url = `/api/holdings?mode=stocks&cusip=${cusip}&quarter=${quarter}&limit=60&offset=${offset}`;
        const response = await ctx.app.inject({ url });
        expect(response.statusCode, url).toBe(200);
        const body = JSON.parse(response.body);
        expect(body.total).toBe(expected.length);
        listed.push(...body.data);
      }
      expect(listed).toEqual(
        expected.map(({ manager, value, shares, code }) => ({
          cik: manager?.cik,
          name: manager?.name,
          city: manager?.city,
          state: manager?.state,
          value: money(value),
          shares,
          share_type: shareTypeOf(code),
          put_call: putCallOf(code),
          weight: percent(value, manager?.total_value as number),
        })),
      );
    }
  });

  it('the migrate backfills pack exactly what the derivation packed', async () => {
    const { writer } = ctx.database;
    const portfolios = await packs('manager_portfolios');
    const securities = await packs('security_positions');
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
      `/api/holdings/${a}`,
    ];
    const answer = async (url: string) => {
      const response = await ctx.app.inject({ url });
      expect(response.statusCode, url).toBe(200);
      // Written piece by piece (comparison.ts), the text is what JSON.stringify prints of its values.
      expect(response.body, url).toBe(JSON.stringify(JSON.parse(response.body)));
      return response.body;
    };
    const before = await Promise.all(urls.map(answer));
    expect(JSON.parse(before[0] as string).shared_positions.length).toBeGreaterThan(10);

    // A database derived before either store: its positions in the `positions` table only.
    const rows = (await storedPositions(writer.db)).map(({ code: _, ...row }) => row);
    await writer.db.deleteFrom('manager_portfolios').execute();
    await writer.db.deleteFrom('security_positions').execute();
    await writer.db.transaction().execute((trx) => insertRows(writer, 'positions', rows, trx));
    const quarters = await writer.db.transaction().execute((trx) => backfillManagerPortfolios(writer, trx));
    expect(quarters).toBe(portfolios.length);
    expect(await packs('manager_portfolios')).toEqual(portfolios);
    expect(
      await writer.db.transaction().execute((trx) => backfillSecurityPositions(writer, trx)),
    ).toBeGreaterThan(0);
    expect(await packs('security_positions')).toEqual(securities);
    // Second backfills find packs and do nothing.
    expect(await writer.db.transaction().execute((trx) => backfillManagerPortfolios(writer, trx))).toBe(0);
    expect(await writer.db.transaction().execute((trx) => backfillSecurityPositions(writer, trx))).toBe(0);
    expect(await Promise.all(urls.map(answer))).toEqual(before);
  });

  // Last: it takes the schema down and up again.
  it('migration 0016 down refills positions with every stored position; up and migrate pack them again', async () => {
    const { writer } = ctx.database;
    const stored = (await storedPositions(writer.db)).map(({ code: _, ...row }) => row);
    const securities = await packs('security_positions');
    const migrator = new Migrator({ db: writer.db, provider: migrationProvider });
    const down = await migrator.migrateTo('0015_financials_parents_index');
    expect(down.error).toBeUndefined();
    const refilled = await writer.db
      .selectFrom('positions')
      .selectAll()
      .orderBy('quarter')
      .orderBy('cik')
      .orderBy('cusip')
      .execute();
    const row = (p: Omit<PositionRow, 'code'>) => ({
      ...p,
      value: Number(p.value),
      shares: Number(p.shares),
      is_equity: Number(p.is_equity),
    });
    // The database orders the put/call codes its own way: compare as sets of rows.
    const key = (p: Omit<PositionRow, 'code'>) => JSON.stringify(row(p));
    expect(refilled.map(key).sort()).toEqual(stored.map(key).sort());
    expect(await migrateToLatest(writer)).toContain('0016_security_positions');
    expect(await packs('security_positions')).toEqual(securities);
  });
});
