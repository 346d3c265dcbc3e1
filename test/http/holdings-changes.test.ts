/**
 * SPEC §6 on the small demo dataset, derived by each backend itself: every answer is checked
 * against what the test derives from other endpoints (portfolios, timelines, manager lists) and
 * from the splits the demo applied (its ground truth, not the detection under test).
 */
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { buildHoldingsDemo, demoSplits } from '../../src/demo/holdings/index.js';
import { DEFAULT_DEMO_SEED } from '../../src/demo/index.js';
import { getJson, useTestApp, withAppOn } from '../helpers/app.js';
import { testBackends } from '../helpers/backends.js';

const DEMO = { seed: DEFAULT_DEMO_SEED, scale: 'small' } as const;
const SPLITS = demoSplits(DEMO.seed, DEMO.scale);

interface Equity {
  shares: number;
  value: number;
  weight: number;
}
interface Portfolio {
  total: number;
  equity: Map<string, Equity>;
}
interface Change {
  cusip: string;
  status: string;
  shares_before: number;
  shares_after: number;
  value_before: number;
  value_after: number;
  weight_before: number;
  weight_after: number;
  split_factor: number | null;
}

const round4 = (x: number) => Math.round(x * 10_000) / 10_000;

async function json(app: FastifyInstance, url: string) {
  const { status, body } = await getJson(app, url);
  expect(status, url).toBe(200);
  return body;
}

/** The answer's body as sent. */
async function text(app: FastifyInstance, url: string) {
  return (await app.inject({ method: 'GET', url })).body;
}

/** Every page of a paged list. */
async function all<T>(
  app: FastifyInstance,
  url: string,
): Promise<{ data: T[]; first: Record<string, unknown> }> {
  const join = url.includes('?') ? '&' : '?';
  const first = await json(app, `${url}${join}limit=1000`);
  const data: T[] = [...first.data];
  while (data.length < first.total)
    data.push(...(await json(app, `${url}${join}limit=1000&offset=${data.length}`)).data);
  return { data, first };
}

async function portfolio(app: FastifyInstance, cik: string, quarter: string): Promise<Portfolio> {
  const body = await json(app, `/api/holdings/${cik}?quarter=${quarter}`);
  const equity = new Map<string, Equity>();
  for (const h of body.holdings)
    if (h.share_type === 'SH' && h.put_call === null)
      equity.set(h.cusip, { shares: h.shares, value: h.value, weight: h.weight });
  return { total: body.total_value, equity };
}

/** The product of the demo's splits of `cusip` in (from, to]. */
function factorBetween(cusip: string, from: string, to: string): number | null {
  const splits = SPLITS.filter((s) => s.cusip === cusip && s.quarter > from && s.quarter <= to);
  return splits.length === 0 ? null : splits.reduce((f, s) => f * s.factor, 1);
}

/** The changes of a manager's quarter as SPEC §6 defines them, from its two portfolios. */
function derive(before: Portfolio | null, after: Portfolio, from: string | null, to: string): Change[] {
  const cusips = new Set([...after.equity.keys(), ...(before?.equity.keys() ?? [])]);
  const changes: Change[] = [];
  for (const cusip of cusips) {
    const a = after.equity.get(cusip);
    const b = before?.equity.get(cusip);
    // The split is the security's: reported on every row of it, new ones included.
    const factor = from ? factorBetween(cusip, from, to) : null;
    const sharesBefore = b ? b.shares * (factor ?? 1) : 0;
    const status = !b
      ? 'new'
      : !a
        ? 'sold_out'
        : Math.abs(a.shares - sharesBefore) < 1
          ? 'unchanged'
          : a.shares > sharesBefore
            ? 'added'
            : 'reduced';
    changes.push({
      cusip,
      status,
      shares_before: round4(sharesBefore),
      shares_after: a?.shares ?? 0,
      value_before: b?.value ?? 0,
      value_after: a?.value ?? 0,
      weight_before: b?.weight ?? 0,
      weight_after: a?.weight ?? 0,
      split_factor: factor,
    });
  }
  return changes.sort((x, y) => (x.cusip < y.cusip ? -1 : 1));
}

describe.each(testBackends())('13F changes, holders, securities and filing progress on $name', (backend) => {
  const ctx = useTestApp(backend, (writer) => buildHoldingsDemo(writer, DEMO));

  const quartersLoaded = async () => (await json(ctx.app, '/api/stats')).quarters as string[];

  async function checkChanges(cik: string, quarter: string) {
    const filed = ((await json(ctx.app, `/api/holdings/${cik}/timeline`)) as { quarter: string }[]).map(
      (t) => t.quarter,
    );
    const previous = filed.filter((q) => q < quarter).at(-1) ?? null;
    const after = await portfolio(ctx.app, cik, quarter);
    const before = previous ? await portfolio(ctx.app, cik, previous) : null;
    const expected = derive(before, after, previous, quarter);
    const { data, first } = await all<
      Change & { issuer: string; ticker: string | null; value_change: number; shares_change: number }
    >(ctx.app, `/api/holdings/${cik}/changes?quarter=${quarter}`);
    expect(first.previous_quarter).toBe(previous);
    const got = data
      .map(({ issuer: _issuer, ticker: _ticker, value_change, shares_change, ...change }) => {
        expect(value_change).toBeCloseTo(change.value_after - change.value_before, 2);
        expect(shares_change).toBeCloseTo(change.shares_after - change.shares_before, 3);
        return change;
      })
      .sort((x, y) => (x.cusip < y.cusip ? -1 : 1));
    expect(got).toEqual(expected);
    // Order: |value_change| descending, then CUSIP.
    for (let i = 1; i < data.length; i++) {
      const [p, c] = [data[i - 1] as Change, data[i] as Change];
      const [dp, dc] = [Math.abs(p.value_after - p.value_before), Math.abs(c.value_after - c.value_before)];
      expect(
        dp > dc - 0.002 || (Math.abs(dp - dc) <= 0.002 && p.cusip < c.cusip),
        `${p.cusip} before ${c.cusip}`,
      ).toBe(true);
    }
    const count = (status: string) => expected.filter((e) => e.status === status).length;
    const summary = first.summary as Record<string, number>;
    expect(summary).toMatchObject({
      new: count('new'),
      added: count('added'),
      reduced: count('reduced'),
      unchanged: count('unchanged'),
      sold_out: count('sold_out'),
    });
    expect(summary.value_after).toBeCloseTo(
      expected.reduce((s, e) => s + e.value_after, 0),
      1,
    );
    expect(summary.value_before).toBeCloseTo(
      expected.reduce((s, e) => s + e.value_before, 0),
      1,
    );
    return expected;
  }

  it('a manager’s changes equal what its two portfolios show, split-adjusted, in every quarter', {
    timeout: 120_000,
  }, async () => {
    const quarters = await quartersLoaded();
    const latest = quarters.at(-1) as string;
    const managers = (await json(ctx.app, `/api/holdings?quarter=${latest}&limit=200`)).data as {
      cik: string;
    }[];
    const sample = [0, 1, 2, 3, 50, 120, 199].map((i) => (managers[i] as { cik: string }).cik);
    let splitRows = 0;
    for (const cik of sample) {
      const filed = ((await json(ctx.app, `/api/holdings/${cik}/timeline`)) as { quarter: string }[]).map(
        (t) => t.quarter,
      );
      const wanted = new Set([latest, ...SPLITS.map((s) => s.quarter), filed[0] as string]);
      for (const quarter of filed.filter((q) => wanted.has(q))) {
        const got = await checkChanges(cik, quarter).catch((error) => {
          throw new Error(`${cik} ${quarter}: ${error.message}`);
        });
        splitRows += got.filter((c) => c.split_factor !== null).length;
      }
    }
    // The sample meets both demo splits, and its first quarter is all `new`.
    expect(splitRows).toBeGreaterThan(3);
    const firstQuarter = await json(ctx.app, `/api/holdings/${sample[0]}/changes?quarter=${quarters[0]}`);
    expect(firstQuarter.previous_quarter).toBeNull();
    expect(firstQuarter.summary.new).toBe(firstQuarter.total);
  });

  it('compares across a skipped quarter with the manager’s previous filed quarter', {
    timeout: 60_000,
  }, async () => {
    const quarters = await quartersLoaded();
    const managers = (await json(ctx.app, `/api/holdings?limit=200&offset=200`)).data as { cik: string }[];
    let checked = 0;
    for (const { cik } of managers) {
      const filed = ((await json(ctx.app, `/api/holdings/${cik}/timeline`)) as { quarter: string }[]).map(
        (t) => t.quarter,
      );
      const gap = filed.findIndex(
        (q, i) => i > 0 && quarters.indexOf(q) - quarters.indexOf(filed[i - 1] as string) > 1,
      );
      if (gap < 0) continue;
      await checkChanges(cik, filed[gap] as string);
      checked += 1;
      if (checked === 3) break;
    }
    expect(checked).toBeGreaterThan(0);
  });

  it('detects exactly the demo’s splits, with their factors', async () => {
    const { rows } = await ctx.database.writer.db
      .selectFrom('security_splits')
      .select(['cusip', 'quarter', 'factor'])
      .orderBy('quarter')
      .execute()
      .then((found) => ({ rows: found.map((r) => ({ ...r, factor: Number(r.factor) })) }));
    expect(rows).toEqual(
      [...SPLITS]
        .sort((a, b) => (a.quarter < b.quarter ? -1 : 1))
        .map((s) => ({ cusip: s.cusip, quarter: s.quarter, factor: s.factor })),
    );
    expect(SPLITS.map((s) => s.factor).sort()).toEqual([0.1, 2]);
    for (const split of SPLITS) {
      const history = (await json(ctx.app, `/api/securities/${split.cusip}`)).history as {
        quarter: string;
        split_factor: number | null;
      }[];
      expect(history.filter((h) => h.split_factor !== null)).toEqual([
        expect.objectContaining({ quarter: split.quarter, split_factor: split.factor }),
      ]);
      // Holders that did not trade keep their position: unchanged, not added (2-for-1) or reduced (1-for-10).
      const holders = await json(
        ctx.app,
        `/api/securities/${split.cusip}/holders?quarter=${split.quarter}&status=unchanged&limit=5`,
      );
      expect(holders.split_factor).toBe(split.factor);
      expect(holders.summary.unchanged).toBeGreaterThan(10);
      for (const holder of holders.data as { cik: string; shares: number }[]) {
        const positions = (await json(ctx.app, `/api/holdings/${holder.cik}/positions/${split.cusip}`)) as {
          quarter: string;
          shares: number;
          status: string;
        }[];
        const at = positions.findIndex((p) => p.quarter === split.quarter);
        expect(positions[at]?.status).toBe('unchanged');
        expect(Math.abs(holder.shares - (positions[at - 1]?.shares as number) * split.factor)).toBeLessThan(
          1,
        );
      }
    }
  });

  it('holders’ new and sold-out counts equal the security history’s new and exited holders', {
    timeout: 60_000,
  }, async () => {
    const quarters = await quartersLoaded();
    const crowded = (await json(ctx.app, '/api/crowded?limit=3')).data as { cusip: string }[];
    const cusips = [...SPLITS.map((s) => s.cusip), ...crowded.map((c) => c.cusip)];
    for (const cusip of cusips) {
      const history = (await json(ctx.app, `/api/securities/${cusip}`)).history as Record<
        string,
        number | string
      >[];
      expect(history.map((h) => h.quarter)).toEqual(quarters);
      for (const entry of history) {
        const { data, first } = await all<{ status: string; shares: number; value: number }>(
          ctx.app,
          `/api/securities/${cusip}/holders?quarter=${entry.quarter}`,
        );
        const count = (status: string) => data.filter((h) => h.status === status).length;
        expect(count('new')).toBe(entry.new_holders);
        expect(count('sold_out')).toBe(entry.exited_holders);
        expect(data.length - count('sold_out')).toBe(entry.holder_count);
        expect(first.summary).toEqual({
          new: count('new'),
          added: count('added'),
          reduced: count('reduced'),
          unchanged: count('unchanged'),
          sold_out: count('sold_out'),
        });
        expect(data.reduce((s, h) => s + h.shares, 0)).toBe(entry.total_shares);
        expect(data.reduce((s, h) => s + h.value, 0)).toBeCloseTo(entry.total_value as number, 1);
        // Value descending; sold-out managers (value 0) last.
        for (let i = 1; i < data.length; i++)
          expect((data[i - 1] as { value: number }).value).toBeGreaterThanOrEqual(
            (data[i] as { value: number }).value,
          );
      }
    }
  });

  it('holders pages are the same from the read index and from SQL', async () => {
    await withAppOn(ctx.database, { readIndexMaxBytes: 0 }, async (plain) => {
      const quarters = await quartersLoaded();
      const crowded = (await json(ctx.app, '/api/crowded?limit=2')).data as { cusip: string }[];
      const cusips = [...SPLITS.map((s) => s.cusip), ...crowded.map((c) => c.cusip)];
      let compared = 0;
      for (const cusip of cusips)
        for (const quarter of quarters)
          // biome-ignore format: the pages compared
          for (const query of ['', '&status=sold_out&limit=3', '&status=new', '&offset=5&limit=7',
            '&status=added&offset=4&limit=3', '&status=unchanged&offset=2', '&offset=40&limit=1000', '&offset=100000']) {
            const url = `/api/securities/${cusip}/holders?quarter=${quarter}${query}`;
            const [indexed, sql] = [await getJson(ctx.app, url), await getJson(plain, url)];
            expect(sql.status, url).toBe(indexed.status);
            expect(sql.body, url).toEqual(indexed.body);
            if (indexed.status !== 200) continue;
            compared++;
            // The index writes its records' JSON itself; the schema serializer writes the SQL page's.
            const [indexedText, sqlText] = [await text(ctx.app, url), await text(plain, url)];
            expect(indexedText, url).toBe(sqlText);
            expect(indexed.headers['content-type'], url).toBe(sql.headers['content-type']);
            const csv = `${url}&format=csv`;
            expect(await text(ctx.app, csv), csv).toBe(await text(plain, csv));
          }
      expect(compared).toBeGreaterThan(20);
    });
  });

  it('a position history matches the portfolios and the changes of each quarter', async () => {
    const quarters = await quartersLoaded();
    const latest = quarters.at(-1) as string;
    const cik = (
      (await json(ctx.app, `/api/holdings?quarter=${latest}&limit=1&offset=7`)).data[0] as { cik: string }
    ).cik;
    const changes = (await all<Change>(ctx.app, `/api/holdings/${cik}/changes`)).data;
    for (const change of changes.slice(0, 8)) {
      const history = (await json(ctx.app, `/api/holdings/${cik}/positions/${change.cusip}`)) as {
        quarter: string;
        shares: number;
        value: number;
        weight: number;
        status: string;
      }[];
      expect(history.at(-1)).toMatchObject({
        quarter: latest,
        status: change.status,
        shares: change.shares_after,
        value: change.value_after,
        weight: change.weight_after,
      });
      for (const entry of history.slice(0, -1)) {
        const held = (await portfolio(ctx.app, cik, entry.quarter)).equity.get(change.cusip);
        expect(entry).toMatchObject({
          shares: held?.shares ?? 0,
          value: held?.value ?? 0,
          weight: held?.weight ?? 0,
        });
        if (!held) expect(entry.status).toBe('sold_out');
      }
    }
  });

  it('filing progress equals the counts of the manager lists', async () => {
    const quarters = await quartersLoaded();
    const filers = async (quarter: string) =>
      new Set(
        (await all<{ cik: string }>(ctx.app, `/api/holdings?quarter=${quarter}`)).data.map((m) => m.cik),
      );
    for (const quarter of quarters.slice(-2)) {
      const progress = await json(ctx.app, `/api/filing-progress?quarter=${quarter}`);
      const now = await filers(quarter);
      const index = quarters.indexOf(quarter);
      const previous = index > 0 ? (quarters[index - 1] as string) : null;
      const before = previous ? await filers(previous) : new Set<string>();
      const continuing = [...before].filter((cik) => now.has(cik)).length;
      const [year, q] = quarter.split('-Q').map(Number) as [number, number];
      const deadline = new Date(Date.UTC(year, q * 3, 0) + 45 * 86_400_000).toISOString().slice(0, 10);
      expect(progress).toMatchObject({
        quarter,
        deadline,
        previous_quarter: previous,
        previous_filers: before.size,
        filed: { managers: now.size, share_of_previous_filers: round4((continuing / before.size) * 100) },
        not_yet: before.size - continuing,
      });
      const days = progress.by_day as { date: string; managers: number; cumulative: number }[];
      expect(days.at(-1)?.cumulative).toBe(now.size);
      expect(progress.late).toBe(days.filter((d) => d.date > deadline).reduce((s, d) => s + d.managers, 0));
      const stats = await json(ctx.app, `/api/holdings?quarter=${quarter}&limit=1`);
      expect(stats.total).toBe(now.size);
    }
  });

  it('finds securities by ticker (first), issuer name and CUSIP', async () => {
    const split = SPLITS[0] as { cusip: string };
    const found = await json(ctx.app, `/api/securities?cusip=${split.cusip.toLowerCase()}`);
    expect(found.total).toBe(1);
    const { ticker, issuer } = found.data[0];
    expect(ticker).toMatch(/^[A-Z]+$/);
    const byTicker = await json(ctx.app, `/api/securities?ticker=${ticker.toLowerCase()}`);
    expect(byTicker.data.map((s: { cusip: string }) => s.cusip)).toEqual([split.cusip]);
    const byQ = await json(ctx.app, `/api/securities?q=${ticker.toLowerCase()}&limit=5`);
    expect(byQ.data[0].cusip).toBe(split.cusip);
    const byName = await all<{ issuer: string; total_value: number }>(
      ctx.app,
      `/api/securities?q=${encodeURIComponent(issuer.slice(0, 6))}`,
    );
    expect(byName.data.every((s) => s.issuer.toLowerCase().includes(issuer.slice(0, 6).toLowerCase()))).toBe(
      true,
    );
    for (let i = 1; i < byName.data.length; i++)
      expect((byName.data[i - 1] as { total_value: number }).total_value).toBeGreaterThanOrEqual(
        (byName.data[i] as { total_value: number }).total_value,
      );
    // The search's latest quarter and figures are the history's latest held quarter.
    const history = (await json(ctx.app, `/api/securities/${split.cusip}`)).history as {
      quarter: string;
      holder_count: number;
      total_value: number;
    }[];
    const latest = history.filter((h) => h.holder_count > 0).at(-1);
    expect(found.data[0]).toMatchObject({
      latest_quarter: latest?.quarter,
      holder_count: latest?.holder_count,
      total_value: latest?.total_value,
    });
  });

  it('answers bad input with 400 and unknown ids or quarters with 404 problem documents', async () => {
    const cik = ((await json(ctx.app, '/api/holdings?limit=1')).data[0] as { cik: string }).cik;
    const cases: [string, number, string][] = [
      ['/api/holdings/12a/changes', 400, 'cik'],
      [`/api/holdings/${cik}/changes?status=bought`, 400, 'status'],
      [`/api/holdings/${cik}/changes?quarter=2025-Q5`, 400, 'quarter'],
      [`/api/holdings/${cik}/changes?limit=0`, 400, 'limit'],
      [`/api/holdings/${cik}/positions/ABC`, 400, 'cusip'],
      ['/api/securities/12345678', 400, 'cusip'],
      ['/api/securities?ticker=A%20B', 400, 'ticker'],
      ['/api/securities/037833100/holders?status=x', 400, 'status'],
      ['/api/filing-progress?quarter=2025Q1', 400, 'quarter'],
      ['/api/holdings/9999999999/changes', 404, ''],
      [`/api/holdings/${cik}/changes?quarter=2001-Q1`, 404, ''],
      [`/api/holdings/${cik}/positions/ZZZZZZZZZ`, 404, ''],
      ['/api/securities/ZZZZZZZZZ', 404, ''],
      ['/api/securities/ZZZZZZZZZ/holders', 404, ''],
      [`/api/securities/${(SPLITS[0] as { cusip: string }).cusip}/holders?quarter=2001-Q1`, 404, ''],
      ['/api/filing-progress?quarter=2001-Q1', 404, ''],
    ];
    for (const [url, status, param] of cases) {
      const response = await getJson(ctx.app, url);
      expect(response.status, url).toBe(status);
      expect(response.headers['content-type'], url).toContain('application/problem+json');
      if (param)
        expect(
          response.body.errors.map((e: { param: string }) => e.param),
          url,
        ).toContain(param);
    }
  });
});
