import { describe, expect, it } from 'vitest';
import { searchKey } from '../../src/db/search.js';
import { INSTITUTIONS, seedBanking } from '../fixtures/banking.js';
import { getJson, useTestApp } from '../helpers/app.js';
import { testBackends } from '../helpers/backends.js';

type Bank = { cert: number; name: string; state: string | null; asset_size: number | null };

const active = INSTITUTIONS.filter((b) => b.active === 1);
const certs = (body: { data: Bank[] }) => body.data.map((b) => b.cert);

/** Expected order: the sort key (nulls last), then cert ascending. */
function expectedOrder(
  rows: typeof INSTITUTIONS,
  key: (b: (typeof INSTITUTIONS)[number]) => string | number | null,
  dir: 1 | -1,
) {
  return [...rows]
    .sort((a, b) => {
      const [x, y] = [key(a), key(b)];
      if (x === null || y === null) return x === y ? a.cert - b.cert : x === null ? 1 : -1;
      if (x !== y) return (x < y ? -1 : 1) * dir;
      return a.cert - b.cert;
    })
    .map((b) => b.cert);
}

describe.each(testBackends())('GET /api/v1/banks on $name', (backend) => {
  const ctx = useTestApp(backend, seedBanking);

  it('defaults: active institutions by asset size descending (nulls last, ties by cert), limit 50', async () => {
    const { status, headers, body } = await getJson(ctx.app, '/api/v1/banks');
    expect(status).toBe(200);
    expect(headers['access-control-allow-origin']).toBe('*');
    expect(body).toMatchObject({ total: active.length, limit: 50, offset: 0 });
    expect(certs(body)).toEqual(expectedOrder(active, (b) => b.asset_size ?? null, -1));
    expect(certs(body).at(-1)).toBe(110);
  });

  it('returns the seed fields with nulls, never empty strings', async () => {
    const { body } = await getJson(ctx.app, '/api/v1/banks?q=quoted');
    expect(body.data).toEqual([
      {
        cert: 105,
        name: 'First "Quoted" National Bank',
        city: 'Springfield',
        state: 'TX',
        charter_class: 'N',
        asset_size: 750000,
        established: null,
        holding_company: null,
        active: true,
      },
    ]);
    const giant = await getJson(ctx.app, '/api/v1/banks?limit=1');
    expect(giant.body.data[0]).toMatchObject({
      asset_size: 3_500_000_000,
      holding_company: 'Giant Financial Corp.',
    });
  });

  it('filters by state case-insensitively, answering the acceptance query', async () => {
    const { body } = await getJson(ctx.app, '/api/v1/banks?state=tx&limit=5');
    const texas = active.filter((b) => b.state === 'TX');
    expect(body.total).toBe(texas.length);
    expect(body.limit).toBe(5);
    expect(certs(body)).toEqual(expectedOrder(texas, (b) => b.asset_size ?? null, -1).slice(0, 5));
    expect(certs(body).slice(0, 3)).toEqual([101, 102, 103]);
  });

  it.each([
    ['bank & trust', [101]],
    ["texans'", [102]],
    ['premiere', [104]],
    ['PREMIÈRE banque', [104]],
    ['oresund', [118]],
    ['%', [106]],
    ['_', [107]],
    ['  LONE star  ', [101]],
    ['"quoted"', [105]],
    ['zzz-nothing', []],
  ])('q=%s matches a case- and accent-insensitive literal substring', async (q, expected) => {
    const { body } = await getJson(ctx.app, `/api/v1/banks?q=${encodeURIComponent(q)}`);
    expect(certs(body).sort()).toEqual(expected);
    expect(body.total).toBe(expected.length);
  });

  it('limits q to 100 characters and treats an empty q as absent', async () => {
    expect((await getJson(ctx.app, `/api/v1/banks?q=${'a'.repeat(100)}`)).status).toBe(200);
    const long = await getJson(ctx.app, `/api/v1/banks?q=${'a'.repeat(101)}`);
    expect(long.status).toBe(400);
    expect(long.body.errors).toEqual([{ param: 'q', message: 'must be at most 100 characters' }]);
    expect((await getJson(ctx.app, '/api/v1/banks?q=%20%20')).body.total).toBe(active.length);
  });

  it('applies minAssets and maxAssets inclusively, in thousands of USD', async () => {
    const { body } = await getJson(ctx.app, '/api/v1/banks?minAssets=120000&maxAssets=1200000');
    expect(certs(body)).toEqual([102, 103, 118, 104, 105, 106, 107, 108, 114, 115]);
    const exponent = await getJson(ctx.app, '/api/v1/banks?minAssets=1e9');
    expect(certs(exponent.body)).toEqual([109]);
    const equal = await getJson(ctx.app, '/api/v1/banks?minAssets=10000&maxAssets=10000');
    expect(certs(equal.body)).toEqual([116]);
  });

  it('rejects minAssets above maxAssets', async () => {
    const { status, body } = await getJson(ctx.app, '/api/v1/banks?minAssets=2000&maxAssets=1000');
    expect(status).toBe(400);
    expect(body.errors).toEqual([{ param: 'minAssets', message: 'must not be greater than maxAssets' }]);
  });

  it.each([
    ['name', 'asc'],
    ['NAME', 'DESC'],
    ['state', 'asc'],
    ['State', 'desc'],
    ['asset_size', 'ASC'],
  ])('sorts by %s %s (case-insensitive enums, ties by cert)', async (sortBy, sortDir) => {
    const { status, body } = await getJson(ctx.app, `/api/v1/banks?sortBy=${sortBy}&sortDir=${sortDir}`);
    expect(status).toBe(200);
    const dir = sortDir.toLowerCase() === 'asc' ? 1 : -1;
    const field = sortBy.toLowerCase();
    const key = (b: (typeof INSTITUTIONS)[number]) =>
      field === 'name' ? searchKey(b.name) : field === 'state' ? (b.state ?? null) : (b.asset_size ?? null);
    expect(certs(body)).toEqual(expectedOrder(active, key, dir));
  });

  it('active=false lists inactive institutions; active=all lists every one', async () => {
    const inactive = await getJson(ctx.app, '/api/v1/banks?active=FALSE');
    expect(certs(inactive.body)).toEqual([111, 117]);
    expect(inactive.body.data.every((b: { active: boolean }) => b.active === false)).toBe(true);
    const all = await getJson(ctx.app, '/api/v1/banks?active=all&state=TX');
    expect(all.body.total).toBe(INSTITUTIONS.filter((b) => b.state === 'TX').length);
  });

  it('clamps limit to 500 and returns an empty page past the end', async () => {
    expect((await getJson(ctx.app, '/api/v1/banks?limit=10000')).body.limit).toBe(500);
    const past = await getJson(ctx.app, '/api/v1/banks?offset=1000');
    expect(past.body).toMatchObject({ data: [], total: active.length, offset: 1000 });
  });

  it.each(['asset_size', 'name', 'state'])(
    'walking every page of a filtered list sorted by %s gives each record once',
    async (sortBy) => {
      const seen: number[] = [];
      const filter = `active=all&maxAssets=5000000&sortBy=${sortBy}`;
      const expectedTotal = INSTITUTIONS.filter(
        (b) => b.asset_size != null && b.asset_size <= 5_000_000,
      ).length;
      for (let offset = 0; offset < expectedTotal + 2; offset += 2) {
        const { body } = await getJson(ctx.app, `/api/v1/banks?${filter}&limit=2&offset=${offset}`);
        expect(body.total).toBe(expectedTotal);
        seen.push(...certs(body));
      }
      expect(seen.length).toBe(expectedTotal);
      expect(new Set(seen).size).toBe(expectedTotal);
    },
  );

  it('lists every bad parameter in one 400', async () => {
    const { status, headers, body } = await getJson(
      ctx.app,
      '/api/v1/banks?state=ZZ&minAssets=abc&maxAssets=Infinity&sortBy=size&sortDir=up&active=maybe&limit=0&offset=-1',
    );
    expect(status).toBe(400);
    expect(headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(body.errors.map((e: { param: string }) => e.param).sort()).toEqual(
      ['active', 'limit', 'maxAssets', 'minAssets', 'offset', 'sortBy', 'sortDir', 'state'].sort(),
    );
    const sortBy = body.errors.find((e: { param: string }) => e.param === 'sortBy');
    expect(sortBy.message).toBe('must be one of: asset_size, name, state');
  });

  it.each(['minAssets=NaN', 'maxAssets=1,000', 'limit=1.5', 'limit=0x10', 'offset=abc', 'state=Texas'])(
    'rejects %s',
    async (query) => {
      const { status, body } = await getJson(ctx.app, `/api/v1/banks?${query}`);
      expect(status).toBe(400);
      expect(body.errors).toHaveLength(1);
      expect(body.errors[0].param).toBe(query.split('=')[0]);
    },
  );

  it('rejects repeated parameters', async () => {
    const { status, body } = await getJson(ctx.app, '/api/v1/banks?q=a&q=b&sortDir=asc&sortDir=desc');
    expect(status).toBe(400);
    expect(body.errors.map((e: { param: string }) => e.param).sort()).toEqual(['q', 'sortDir']);
  });

  it('answers HEAD like GET without a body', async () => {
    const response = await ctx.app.inject({ method: 'HEAD', url: '/api/v1/banks?state=TX' });
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe('');
    expect(response.headers['content-type']).toMatch(/^application\/json/);
  });

  it.each(['/api/v1/banks', '/api/v1/financials', '/api/v1/macro'])(
    'answers an OPTIONS preflight on %s with 204 and CORS',
    async (url) => {
      const response = await ctx.app.inject({
        method: 'OPTIONS',
        url,
        headers: { origin: 'https://example.org', 'access-control-request-method': 'GET' },
      });
      expect(response.statusCode).toBe(204);
      expect(response.headers['access-control-allow-origin']).toBe('*');
      expect(String(response.headers['access-control-allow-methods'])).toContain('GET');
    },
  );
});
