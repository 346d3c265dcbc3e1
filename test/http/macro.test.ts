import { describe, expect, it } from 'vitest';
import { MACRO_SERIES_IDS } from '../../src/macro/catalog.js';
import { seedBanking } from '../fixtures/banking.js';
import { getJson, useTestApp } from '../helpers/app.js';
import { testBackends } from '../helpers/backends.js';

type Observation = { date: string; value: number };
const obsDates = (data: Observation[]) => data.map((o) => o.date);

describe.each(testBackends())('GET /api/v1/macro on $name', (backend) => {
  const ctx = useTestApp(backend, seedBanking);

  it('returns meta and observations from the default start 2010-01-01, ascending', async () => {
    const { status, headers, body } = await getJson(ctx.app, '/api/v1/macro?series=DGS10');
    expect(status).toBe(200);
    expect(headers['access-control-allow-origin']).toBe('*');
    expect(Object.keys(body.series)).toEqual(['DGS10']);
    expect(body.series.DGS10.meta).toEqual({
      id: 'DGS10',
      title: '10-Year Treasury Constant Maturity Rate',
      units: 'Percent',
      frequency: 'Daily',
      seasonal_adjustment: 'Not Seasonally Adjusted',
      last_updated: '2026-10-30 15:16:02-05',
      count: 5,
      truncated: false,
    });
    expect(obsDates(body.series.DGS10.data)).toEqual([
      '2010-01-04',
      '2010-01-05',
      '2010-01-06',
      '2010-01-07',
      '2010-01-08',
    ]);
    expect(body.series.DGS10.data[0].value).toBeCloseTo(3.84, 10);
  });

  it('limit applies per series and keeps the most recent observations, ascending', async () => {
    const { body } = await getJson(ctx.app, '/api/v1/macro?series=DGS10,FEDFUNDS&limit=2&start=2009-01-01');
    expect(obsDates(body.series.DGS10.data)).toEqual(['2010-01-07', '2010-01-08']);
    expect(body.series.DGS10.meta).toMatchObject({ count: 9, truncated: true });
    expect(obsDates(body.series.FEDFUNDS.data)).toEqual(['2010-11-01', '2010-12-01']);
    expect(body.series.FEDFUNDS.meta).toMatchObject({ count: 24, truncated: true });
  });

  it('honours start and end inclusively, across the holiday gap', async () => {
    const { body } = await getJson(ctx.app, '/api/v1/macro?series=DGS10&start=2009-12-30&end=2010-01-04');
    expect(obsDates(body.series.DGS10.data)).toEqual(['2009-12-30', '2009-12-31', '2010-01-04']);
    const end = await getJson(ctx.app, '/api/v1/macro?series=fedfunds&end=2010-03-01');
    expect(obsDates(end.body.series.FEDFUNDS.data)).toEqual(['2010-01-01', '2010-02-01', '2010-03-01']);
  });

  it('keeps a real zero value', async () => {
    const { body } = await getJson(ctx.app, '/api/v1/macro?series=FEDFUNDS&start=2009-06-01&end=2009-06-01');
    expect(body.series.FEDFUNDS.data).toEqual([{ date: '2009-06-01', value: 0 }]);
  });

  it('series IDs are case-insensitive, trimmed and de-duplicated', async () => {
    const { status, body } = await getJson(
      ctx.app,
      `/api/v1/macro?series=${encodeURIComponent(' dgs10 ,FedFunds,DGS10,,')}`,
    );
    expect(status).toBe(200);
    expect(Object.keys(body.series).sort()).toEqual(['DGS10', 'FEDFUNDS']);
  });

  it('falls back to the catalogue for meta when no series row is stored', async () => {
    const { body } = await getJson(ctx.app, '/api/v1/macro?series=T10Y2Y');
    expect(body.series.T10Y2Y).toEqual({
      meta: {
        id: 'T10Y2Y',
        title: '10Y-2Y Treasury Spread (Yield Curve)',
        units: 'Percent',
        frequency: 'Daily',
        seasonal_adjustment: 'Not Seasonally Adjusted',
        last_updated: null,
        count: 1,
        truncated: false,
      },
      data: [{ date: '2010-06-01', value: -0.25 }],
    });
  });

  it('returns an empty window with count 0', async () => {
    const { body } = await getJson(ctx.app, '/api/v1/macro?series=DGS10&start=2020-01-01');
    expect(body.series.DGS10).toMatchObject({ data: [], meta: { count: 0, truncated: false } });
  });

  it('names unknown series in the 400 and lists the valid ones', async () => {
    const { status, body } = await getJson(ctx.app, '/api/v1/macro?series=DGS10,foo,BAR');
    expect(status).toBe(400);
    expect(body.errors).toHaveLength(1);
    expect(body.errors[0].param).toBe('series');
    expect(body.errors[0].message).toContain('FOO, BAR');
    for (const id of MACRO_SERIES_IDS) expect(body.errors[0].message).toContain(id);
    expect(body.detail).toContain('FOO, BAR');
  });

  it.each([
    ['', 'series'],
    ['series=', 'series'],
    ['series=,,', 'series'],
    ['series=DGS10&start=2010-02-30', 'start'],
    ['series=DGS10&end=2010-13-01', 'end'],
    ['series=DGS10&start=2011-01-01&end=2010-01-01', 'start'],
    ['series=DGS10&end=2005-01-01', 'start'],
    ['series=DGS10&limit=0', 'limit'],
    ['series=DGS10&limit=ten', 'limit'],
    ['series=DGS10&series=FEDFUNDS', 'series'],
  ])('?%s → 400 on %s', async (query, param) => {
    const { status, body } = await getJson(ctx.app, `/api/v1/macro?${query}`);
    expect(status).toBe(400);
    expect(body.errors.map((e: { param: string }) => e.param)).toEqual([param]);
  });

  it('explains the default start when only end is too early', async () => {
    const { body } = await getJson(ctx.app, '/api/v1/macro?series=DGS10&end=2005-01-01');
    expect(body.errors[0].message).toBe('must not be after end (start defaults to 2010-01-01)');
  });

  it('lists every bad parameter in one 400', async () => {
    const { body } = await getJson(ctx.app, '/api/v1/macro?series=NOPE&start=x&end=y&limit=-1');
    expect(body.errors.map((e: { param: string }) => e.param).sort()).toEqual([
      'end',
      'limit',
      'series',
      'start',
    ]);
  });

  it('accepts limit above 5000 (clamped)', async () => {
    const { status, body } = await getJson(
      ctx.app,
      '/api/v1/macro?series=DGS10&limit=100000&start=1900-01-01',
    );
    expect(status).toBe(200);
    expect(body.series.DGS10.data).toHaveLength(9);
  });

  it('answers 503 naming the ingest command when a series has no observations', async () => {
    const { status, body } = await getJson(ctx.app, '/api/v1/macro?series=DGS10,UNRATE,M2SL');
    expect(status).toBe(503);
    expect(body.type).toBe('/problems/data-unavailable');
    expect(body.detail).toContain('UNRATE, M2SL');
    expect(body.detail).toContain('regdata ingest fred');
  });

  it('answers HEAD like GET without a body', async () => {
    const response = await ctx.app.inject({ method: 'HEAD', url: '/api/v1/macro?series=DGS10' });
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe('');
  });
});
