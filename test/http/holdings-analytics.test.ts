/**
 * Holdings analytics, advisers and macro on the hand-built fixture (test/fixtures/holdings.ts). Every expected number is
 * worked out by hand below from the raw filings; values are thousands of USD.
 */
import { describe, expect, it } from 'vitest';
import { CIK, CUSIP, seedHoldings } from '../fixtures/holdings.js';
import { getJson, useTestApp } from '../helpers/app.js';
import { testBackends } from '../helpers/backends.js';

const A = '0001067983';
const B = '0000102909';
const E = '0002000003';

describe.each(testBackends())('holdings analytics on $name', (backend) => {
  const ctx = useTestApp(backend, seedHoldings);

  it('ranks crowded equity positions by managers, then value', async () => {
    // 2025-Q4 equity: AAPL A,B,D,E (264+550+22+55 = 891, 1200+2500+100+250 = 4050 sh); NVDA A,B
    // (132); MSFT A (160); GOOGL B (40); AMZN D (11). The PRN note and options are excluded.
    const { body } = await getJson(ctx.app, '/api/crowded');
    expect(body.quarter).toBe('2025-Q4');
    expect(
      body.data.map((c: { cusip: string; manager_count: number; total_value: number }) => [
        c.cusip,
        c.manager_count,
        c.total_value,
      ]),
    ).toEqual([
      [CUSIP.AAPL, 4, 891],
      [CUSIP.NVDA, 2, 132],
      [CUSIP.MSFT, 1, 160],
      [CUSIP.GOOGL, 1, 40],
      [CUSIP.AMZN, 1, 11],
    ]);
    expect(body.data[0].total_shares).toBe(4050);
    const q3 = await getJson(ctx.app, '/api/crowded?quarter=2025-Q3&limit=1');
    // 2025-Q3 AAPL: A, B, C, E → 4 managers, 200 + 400 + 100 + 60 = 760.
    expect(q3.body.data).toEqual([
      expect.objectContaining({ cusip: CUSIP.AAPL, manager_count: 4, total_value: 760 }),
    ]);
  });

  it('computes the three smart-money groups over managers that filed both quarters', async () => {
    // Compared: A, B, E (C did not file 2025-Q4, so its AAPL and AMZN are NOT exits; D's 2025-Q3
    // was a 13F-NT, so its AAPL and AMZN are NOT entries).
    const { status, body } = await getJson(ctx.app, '/api/smart-money');
    expect(status).toBe(200);
    expect(body).toMatchObject({ quarter: '2025-Q4', previous_quarter: '2025-Q3', managers_compared: 3 });
    // Tickers are null: the fixture loads no security master (sec-network.test.ts covers a known one).
    // Entries: GOOGL by B (value 40), NVDA by A (value 12); one manager each, then by value.
    expect(body.new_entries).toEqual([
      { cusip: CUSIP.GOOGL, issuer: 'ALPHABET INC', ticker: null, manager_count: 1, value: 40 },
      { cusip: CUSIP.NVDA, issuer: 'NVIDIA CORPORATION', ticker: null, manager_count: 1, value: 12 },
    ]);
    // Exits: XOM by A (previous value 10) and B (5; dropped by the restatement) → 2 managers, 15.
    expect(body.top_exits).toEqual([
      { cusip: CUSIP.XOM, issuer: 'EXXON MOBIL CORP', ticker: null, manager_count: 2, value: 15 },
    ]);
    // Inflows at current prices: AAPL A (1200−1000) × 264/1200 = 44, B (2500−2000) × 550/2500 = 110,
    // E (250−300) × 55/250 = −11 → 143, shares 200 + 500 − 50 = 650, 2 managers added.
    // GOOGL B 200 × 0.2 = 40; NVDA A 100 × 0.12 = 12 (B unchanged). MSFT unchanged → left out.
    expect(body.biggest_inflows).toEqual([
      {
        cusip: CUSIP.AAPL,
        issuer: 'APPLE INC',
        ticker: null,
        value_change: 143,
        shares_change: 650,
        manager_count: 2,
      },
      {
        cusip: CUSIP.GOOGL,
        issuer: 'ALPHABET INC',
        ticker: null,
        value_change: 40,
        shares_change: 200,
        manager_count: 1,
      },
      {
        cusip: CUSIP.NVDA,
        issuer: 'NVIDIA CORPORATION',
        ticker: null,
        value_change: 12,
        shares_change: 100,
        manager_count: 1,
      },
    ]);
    const limited = await getJson(ctx.app, '/api/smart-money?limit=1');
    expect(limited.body.biggest_inflows).toHaveLength(1);
    expect(limited.body.new_entries).toHaveLength(1);
  });

  it('builds the overlap matrix with its diagonal', async () => {
    // 2025-Q4 CUSIPs: A {AAPL, MSFT, NVDA}, B {AAPL, NVDA, GOOGL}, E {AAPL, TSLA note}.
    const { body } = await getJson(ctx.app, `/api/overlap?ciks=${CIK.A},0000${CIK.B},${CIK.E}`);
    expect(body.quarter).toBe('2025-Q4');
    expect(body.similarity_matrix).toEqual({
      [A]: { [A]: 3, [B]: 2, [E]: 1 },
      [B]: { [A]: 2, [B]: 3, [E]: 1 },
      [E]: { [A]: 1, [B]: 1, [E]: 2 },
    });
    expect(body.managers.map((m: { cik: string; total_value: number }) => [m.cik, m.total_value])).toEqual([
      [A, 436],
      [B, 710],
      [E, 164],
    ]);
    // Shared: AAPL by 3 (B 550, A 264, E 55 + 7 + 2 = 64 over 250 + 1000 + 500 = 1750 sh), NVDA by 2.
    expect(body.shared_positions).toEqual([
      {
        cusip: CUSIP.AAPL,
        issuer: 'APPLE INC',
        ticker: null,
        holder_count: 3,
        holders: [
          { cik: B, value: 550, shares: 2500 },
          { cik: A, value: 264, shares: 1200 },
          { cik: E, value: 64, shares: 1750 },
        ],
      },
      {
        cusip: CUSIP.NVDA,
        issuer: 'NVIDIA CORPORATION',
        ticker: null,
        holder_count: 2,
        holders: [
          { cik: B, value: 120, shares: 1000 },
          { cik: A, value: 12, shares: 100 },
        ],
      },
    ]);
  });

  it('uses the latest quarter all managers filed, and 404s when there is none', async () => {
    // C filed only 2025-Q3, so A + C compare in 2025-Q3: A {AAPL, MSFT, XOM}, C {AAPL, AMZN}.
    const ac = await getJson(ctx.app, `/api/overlap?ciks=${CIK.A},${CIK.C}`);
    expect(ac.body.quarter).toBe('2025-Q3');
    expect(ac.body.similarity_matrix[A]).toEqual({ [A]: 3, '0002000001': 1 });
    // C (2025-Q3 only) and D (2025-Q4 only) never filed in the same quarter.
    const cd = await getJson(ctx.app, `/api/overlap?ciks=${CIK.C},${CIK.D}`);
    expect(cd.status).toBe(404);
  });

  it('compares two managers with counts and Jaccard', async () => {
    // A {AAPL, MSFT, NVDA} vs B {AAPL, NVDA, GOOGL}: shared 2, only A 1, only B 1, Jaccard 2/4.
    const { body } = await getJson(ctx.app, `/api/compare?cik1=${CIK.A}&cik2=${CIK.B}`);
    expect(body).toMatchObject({
      quarter: '2025-Q4',
      shared_count: 2,
      only_in_1_count: 1,
      only_in_2_count: 1,
      jaccard: 0.5,
      manager1: { cik: A, total_value: 436, position_count: 3 },
      manager2: { cik: B, total_value: 710, position_count: 3 },
    });
    // By value1 + value2: AAPL 264 + 550, NVDA 12 + 120. Weights: 264/436 = 60.55 %, 550/710 = 77.46 %.
    expect(body.shared_positions.map((p: { cusip: string }) => p.cusip)).toEqual([CUSIP.AAPL, CUSIP.NVDA]);
    expect(body.shared_positions[0]).toMatchObject({
      value1: 264,
      value2: 550,
      shares1: 1200,
      shares2: 2500,
    });
    expect(body.shared_positions[0].weight1).toBeCloseTo(60.5505, 3);
    expect(body.shared_positions[0].weight2).toBeCloseTo(77.4648, 3);
  });

  it('summarises the latest quarter in /api/stats', async () => {
    // 2025-Q4: A 436 (3), B 710 (3), D 33 (2), E 164 (4) → 4 managers, 12 positions, 1343.
    const { body } = await getJson(ctx.app, '/api/stats');
    expect(body).toMatchObject({
      latest_quarter: '2025-Q4',
      quarters: ['2022-Q3', '2025-Q3', '2025-Q4'],
      total_managers: 4,
      total_holdings: 12,
      total_aum: 1343,
      total_advisers: 5,
      state_distribution: [
        { state: 'NY', managers: 2 },
        { state: 'NE', managers: 1 },
      ],
    });
    // Every manager is under 100M USD = 100,000 thousand.
    expect(body.aum_tiers).toHaveLength(5);
    expect(body.aum_tiers[0]).toEqual({
      tier: '<100M',
      min_value: 0,
      max_value: 100000,
      managers: 4,
      total_value: 1343,
    });
    expect(body.aum_tiers[4]).toMatchObject({ tier: '>=100B', max_value: null, managers: 0 });
  });
});

describe.each(testBackends())('advisers and macro on $name', (backend) => {
  const ctx = useTestApp(backend, seedHoldings);
  const crds = (body: { data: { crd: number }[] }) => body.data.map((a) => a.crd);

  it('sorts by AUM descending with nulls last and ties by crd', async () => {
    // Zeta 90B, Alpha 5B, Beta 250M = Gamma 250M (crd 100002 < 100003), Delta null.
    const desc = await getJson(ctx.app, '/api/advisers');
    expect(crds(desc.body)).toEqual([100005, 100001, 100002, 100003, 100004]);
    expect(desc.body).toMatchObject({ total: 5, limit: 50, offset: 0 });
    const asc = await getJson(ctx.app, '/api/advisers?order=ASC');
    expect(crds(asc.body)).toEqual([100002, 100003, 100001, 100005, 100004]);
    const byName = await getJson(ctx.app, '/api/advisers?sort=name&order=asc');
    expect(crds(byName.body)).toEqual([100001, 100002, 100004, 100003, 100005]);
  });

  it('filters by business or legal name, state and AUM range', async () => {
    expect(crds((await getJson(ctx.app, '/api/advisers?q=OMEGA')).body)).toEqual([100005, 100001]);
    expect(crds((await getJson(ctx.app, '/api/advisers?state=ca')).body)).toEqual([100002]);
    const range = await getJson(ctx.app, '/api/advisers?aum_min=1e8&aum_max=10000000000');
    expect(crds(range.body)).toEqual([100001, 100002, 100003]);
    expect((await getJson(ctx.app, '/api/advisers?aum_min=5&aum_max=1')).status).toBe(400);
  });

  it('returns the full adviser record with CIK as a 10-digit string', async () => {
    const { status, body } = await getJson(ctx.app, '/api/advisers/100001');
    expect(status).toBe(200);
    expect(body).toMatchObject({
      crd: 100001,
      sec_number: '801-00001',
      cik: A,
      aum: 5_000_000_000,
      website: null,
      client_breakdown: { individuals: 200, high_net_worth: 90, pension_plans: 10, other: null },
      private_funds: { total: 3, hedge_funds: 2, private_equity_funds: 1 },
    });
    expect((await getJson(ctx.app, '/api/advisers/999999')).status).toBe(404);
  });

  it('serves macro series capped to the 500 most recent observations, ascending', async () => {
    const { status, body } = await getJson(ctx.app, '/api/macro?series=unrate,dgs10');
    expect(status).toBe(200);
    expect(body.map((s: { id: string }) => s.id)).toEqual(['UNRATE', 'DGS10']);
    const unrate = body[0];
    expect(unrate.observations).toHaveLength(500);
    // 600 months 1976-01 … 2025-12; the last 500 start 100 months later, at 1984-05.
    expect(unrate.observations[0].date).toBe('1984-05-01');
    expect(unrate.observations.at(-1).date).toBe('2025-12-01');
    const window = await getJson(ctx.app, '/api/macro?series=DGS10&start=2025-12-31&end=2025-12-31');
    expect(window.body[0].observations).toEqual([{ date: '2025-12-31', value: 4.17 }]);
    // Default: all 12 series, but only 2 are loaded here → 503 naming the ingest command.
    const all = await getJson(ctx.app, '/api/macro');
    expect(all.status).toBe(503);
    expect(all.body.detail).toContain('regdata ingest fred');
  });
});
