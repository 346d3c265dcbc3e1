/**
 * Holdings API on the hand-built fixture (test/fixtures/holdings.ts). Every expected number is
 * worked out by hand below from the raw filings; values are thousands of USD.
 */
import { describe, expect, it } from 'vitest';
import { CIK, CUSIP, seedHoldings } from '../fixtures/holdings.js';
import { getJson, useTestApp } from '../helpers/app.js';
import { testBackends } from '../helpers/backends.js';

const A = '0001067983';
const B = '0000102909';
const D = '0002000002';
const E = '0002000003';

describe.each(testBackends())('holdings portfolios on $name', (backend) => {
  const ctx = useTestApp(backend, seedHoldings);

  it('applies a NEW HOLDINGS amendment on top of the 13F-HR', async () => {
    // A 2025-Q4: 13F-HR AAPL 264,000 $ + MSFT 160,000 $, then NEW HOLDINGS adds NVDA 12,000 $
    // (filed in lower case, normalised). Total 264 + 160 + 12 = 436 thousand.
    const { status, body } = await getJson(ctx.app, `/api/holdings/${CIK.A}`);
    expect(status).toBe(200);
    expect(body).toMatchObject({
      cik: A,
      name: 'Berkshire & "Quoted" Partners',
      quarter: '2025-Q4',
      filed_at: '2026-03-02',
      form_type: '13F-HR/A',
      total_value: 436,
      position_count: 3,
    });
    expect(body.holdings.map((h: { cusip: string; value: number }) => [h.cusip, h.value])).toEqual([
      [CUSIP.AAPL, 264],
      [CUSIP.MSFT, 160],
      [CUSIP.NVDA, 12],
    ]);
    // weight = 264 / 436 × 100 = 60.5505 %
    expect(body.holdings[0]).toMatchObject({
      issuer: 'APPLE INC',
      shares: 1200,
      share_type: 'SH',
      put_call: null,
    });
    expect(body.holdings[0].weight).toBeCloseTo(60.5505, 3);
  });

  it('lets a RESTATEMENT replace the whole report', async () => {
    // B 2025-Q4: original AAPL 440 / NVDA 120 / XOM 5.5, restated to AAPL 550 (2,500 sh),
    // NVDA 120, GOOGL 40: XOM disappears, total 550 + 120 + 40 = 710.
    const { body } = await getJson(ctx.app, `/api/holdings/0000${CIK.B}?quarter=2025-q4`);
    expect(body).toMatchObject({ cik: B, total_value: 710, position_count: 3, form_type: '13F-HR/A' });
    expect(body.filed_at).toBe('2026-03-15');
    expect(body.holdings.map((h: { cusip: string }) => h.cusip)).toEqual([
      CUSIP.AAPL,
      CUSIP.NVDA,
      CUSIP.GOOGL,
    ]);
    expect(body.holdings[0].shares).toBe(2500);
  });

  it('sums rows of one filing per (CUSIP, share type, put/call)', async () => {
    // A 2025-Q3: MSFT filed as 300 sh / 90,000 $ and 200 sh / 60,000 $ → one position 500 sh, 150.
    const { body } = await getJson(ctx.app, `/api/holdings/${CIK.A}?quarter=2025-Q3`);
    expect(body.position_count).toBe(3);
    const msft = body.holdings.find((h: { cusip: string }) => h.cusip === CUSIP.MSFT);
    expect(msft).toMatchObject({ value: 150, shares: 500 });
  });

  it('normalises a thousands filing (before 2023-01-03) and a dollar filing to equal values', async () => {
    // 2022-Q3: A filed 2022-11-14 VALUE 500 (thousands); B filed 2023-01-05 VALUE 500,000 (dollars).
    const { body } = await getJson(ctx.app, `/api/holdings?mode=stocks&cusip=${CUSIP.AAPL}&quarter=2022-Q3`);
    expect(body.data.map((h: { cik: string; value: number }) => [h.cik, h.value])).toEqual([
      [B, 500],
      [A, 500],
    ]);
    expect(body.security).toMatchObject({ holder_count: 2, total_value: 1000, total_shares: 6000 });
  });

  it('keeps options and PRN positions apart from equity', async () => {
    // E 2025-Q4: AAPL SH 55 + PUT 2 + CALL 7 ("call" upper-cased) + TSLA note PRN 100 = 164.
    const { body } = await getJson(ctx.app, `/api/holdings/${CIK.E}`);
    expect(body).toMatchObject({ total_value: 164, position_count: 4, state: null });
    expect(
      body.holdings.map(
        (h: { cusip: string; share_type: string; put_call: string | null; value: number }) => [
          h.cusip,
          h.share_type,
          h.put_call,
          h.value,
        ],
      ),
    ).toEqual([
      [CUSIP.TSLA_NOTE, 'PRN', null, 100],
      [CUSIP.AAPL, 'SH', null, 55],
      [CUSIP.AAPL, 'SH', 'CALL', 7],
      [CUSIP.AAPL, 'SH', 'PUT', 2],
    ]);
  });

  it('builds timelines from resolved quarters', async () => {
    // A: 2022-Q3 500; 2025-Q3 200 + 150 + 10 = 360 (3 positions); 2025-Q4 436 (3).
    const a = await getJson(ctx.app, `/api/holdings/${CIK.A}/timeline`);
    expect(a.body).toEqual([
      { quarter: '2022-Q3', total_value: 500, position_count: 1, equity_value: 500, options_count: 0 },
      { quarter: '2025-Q3', total_value: 360, position_count: 3, equity_value: 360, options_count: 0 },
      { quarter: '2025-Q4', total_value: 436, position_count: 3, equity_value: 436, options_count: 0 },
    ]);
    // E: 2025-Q3 60 + 5 (call) + 98 (PRN) = 163, equity 60, 1 option; 2025-Q4 164, equity 55, 2 options.
    const e = await getJson(ctx.app, `/api/holdings/${CIK.E}/timeline`);
    expect(e.body).toEqual([
      { quarter: '2025-Q3', total_value: 163, position_count: 3, equity_value: 60, options_count: 1 },
      { quarter: '2025-Q4', total_value: 164, position_count: 4, equity_value: 55, options_count: 2 },
    ]);
  });

  it('gives 13F-NT notices no holdings', async () => {
    // F only filed a 13F-NT: known manager, empty timeline, no portfolio.
    const timeline = await getJson(ctx.app, `/api/holdings/${CIK.F}/timeline`);
    expect(timeline.body).toEqual([]);
    expect((await getJson(ctx.app, `/api/holdings/${CIK.F}`)).status).toBe(404);
    // D filed a 13F-NT for 2025-Q3 and a 13F-HR for 2025-Q4.
    expect((await getJson(ctx.app, `/api/holdings/${CIK.D}?quarter=2025-Q3`)).status).toBe(404);
    const d = await getJson(ctx.app, `/api/holdings/${CIK.D}`);
    expect(d.body).toMatchObject({ cik: D, total_value: 33, form_type: '13F-HR' });
  });

  it('lists managers of a quarter by value, filtered by name', async () => {
    // 2025-Q4: B 710, A 436, E 164, D 33 (C did not file; F filed a notice).
    const { body } = await getJson(ctx.app, '/api/holdings');
    expect(body).toMatchObject({ mode: 'managers', quarter: '2025-Q4', total: 4, limit: 50, offset: 0 });
    expect(body.data.map((m: { cik: string; total_value: number }) => [m.cik, m.total_value])).toEqual([
      [B, 710],
      [A, 436],
      [E, 164],
      [D, 33],
    ]);
    const q = await getJson(ctx.app, '/api/holdings?q=%C3%A9p%C3%A9e&quarter=2025-Q4');
    expect(q.body.data.map((m: { cik: string }) => m.cik)).toEqual([E]);
    // Pages that do not show the end still report every manager of the quarter.
    const paged = await getJson(ctx.app, '/api/holdings?limit=2&offset=1');
    expect(paged.body).toMatchObject({ total: 4, limit: 2, offset: 1 });
    expect(paged.body.data.map((m: { cik: string }) => m.cik)).toEqual([A, E]);
    const beyond = await getJson(ctx.app, '/api/holdings?offset=10');
    expect(beyond.body).toMatchObject({ total: 4, data: [] });
    const named = await getJson(ctx.app, '/api/holdings?q=e&limit=1&quarter=2025-Q4');
    expect(named.body.total).toBe(
      (await getJson(ctx.app, '/api/holdings?q=e&quarter=2025-Q4')).body.data.length,
    );
  });

  it('lists the holders of a CUSIP with the security summary', async () => {
    // AAPL 2025-Q4 positions: B 550, A 264, E 55, D 22, E call 7, E put 2.
    // holder_count 4 managers; total_value 550+264+55+22+7+2 = 900; equity shares 2500+1200+250+100 = 4050.
    const { body } = await getJson(ctx.app, `/api/holdings?mode=stocks&cusip=${CUSIP.AAPL.toLowerCase()}`);
    expect(body.security).toEqual({
      cusip: CUSIP.AAPL,
      issuer: 'APPLE INC',
      title_of_class: 'COM',
      ticker: null,
      holder_count: 4,
      total_value: 900,
      total_shares: 4050,
    });
    expect(body.total).toBe(6);
    expect(body.data.map((h: { cik: string; value: number }) => [h.cik, h.value])).toEqual([
      [B, 550],
      [A, 264],
      [E, 55],
      [D, 22],
      [E, 7],
      [E, 2],
    ]);
    // B's weight: 550 / 710 × 100 = 77.4648 %
    expect(body.data[0].weight).toBeCloseTo(77.4648, 3);
  });

  it('lists securities by value and filters them by issuer', async () => {
    // 2025-Q4 totals: AAPL 900, MSFT 160, NVDA 12 + 120 = 132, TSLA note 100, GOOGL 40, AMZN 11.
    const { body } = await getJson(ctx.app, '/api/holdings?mode=STOCKS');
    expect(body.data.map((s: { cusip: string; total_value: number }) => [s.cusip, s.total_value])).toEqual([
      [CUSIP.AAPL, 900],
      [CUSIP.MSFT, 160],
      [CUSIP.NVDA, 132],
      [CUSIP.TSLA_NOTE, 100],
      [CUSIP.GOOGL, 40],
      [CUSIP.AMZN, 11],
    ]);
    const filtered = await getJson(ctx.app, '/api/holdings?mode=stocks&q=micro');
    expect(filtered.body.data.map((s: { cusip: string }) => s.cusip)).toEqual([CUSIP.MSFT]);
  });
});
