/**
 * `regdata ingest fdic-*` against a real HTTP server on 127.0.0.1 answering with recorded BankFind
 * responses (nested data[].data, omitted nulls, numeric CERT, MM/DD/YYYY and YYYYMMDD dates,
 * meta.total pagination), including 429, 500 and a truncated body; checked through the API.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Backend, type TestDatabase, testBackends } from '../helpers/backends.js';
import { type ApiUnderTest, openApi } from './helpers/api.js';
import { ingestJson } from './helpers/cli.js';
import { fixture, json, startUpstream, type Upstream } from './helpers/upstream.js';

const SECRET = 'test-secret-key-0123';
const EMPTY = { meta: { total: 0 }, data: [], totals: { count: 0 } };

function bankFindRoutes() {
  return {
    '/banks/failures': (url: URL, hit: number) => {
      if (hit === 1) return { status: 429, headers: { 'retry-after': '0' }, body: '' };
      if (hit === 2) return { status: 500, body: 'Internal Server Error' };
      const page = url.searchParams.get('offset') === '3' ? 'page2' : 'page1';
      return { ...json(fixture(`bankfind/failures-${page}.json`).toString()), truncate: hit === 3 };
    },
    '/banks/institutions': () => json(fixture('bankfind/institutions.json').toString()),
    '/banks/financials': (url: URL) => {
      const date = /REPDTE:(\d{8})/.exec(url.searchParams.get('filters') ?? '')?.[1];
      const recorded = ['20231231', '20241231'];
      return json(
        date && recorded.includes(date) ? fixture(`bankfind/financials-${date}.json`).toString() : EMPTY,
      );
    },
  };
}

/**
 * A BankFind stand-in holding `count` institutions (CERT 1..count) that enforces the API's
 * 10,000-row result window (offset + limit) and honours `CERT:[lo TO hi]` filters and meta.total.
 */
function windowedInstitutions(count: number, seenFilters: string[]) {
  return (url: URL) => {
    const filter = url.searchParams.get('filters') ?? '';
    seenFilters.push(filter);
    const range = /CERT:\[(\d+) TO (\d+)\]/.exec(filter);
    const lo = range ? Number(range[1]) : 0;
    const hi = range ? Number(range[2]) : Number.MAX_SAFE_INTEGER;
    const first = Math.max(1, lo);
    const last = Math.min(count, hi);
    const total = Math.max(0, last - first + 1);
    const offset = Number(url.searchParams.get('offset'));
    const limit = Number(url.searchParams.get('limit'));
    if (offset + limit > 10_000) return { status: 400, body: '{"message":"Result window is too large"}' };
    const data = [];
    for (let cert = first + offset; cert <= Math.min(last, first + offset + limit - 1); cert++) {
      data.push({
        data: { CERT: cert, NAME: `Bank ${cert}`, STALP: 'KS', ACTIVE: cert % 3 ? 1 : 0, ID: String(cert) },
      });
    }
    return json({ meta: { total }, data });
  };
}

describe.each(testBackends())('FDIC BankFind ingest on $name', (backend: Backend) => {
  let database: TestDatabase;
  let upstream: Upstream;
  let api: ApiUnderTest;
  let env: Record<string, string>;

  beforeAll(async () => {
    database = await backend.create();
    upstream = await startUpstream(bankFindRoutes());
    api = await openApi(database);
    env = {
      DATABASE_URL: database.url,
      FDIC_API_URL: `${upstream.baseUrl}/banks`,
      FDIC_API_KEY: SECRET,
    };
  });
  afterAll(async () => {
    await api?.close();
    await upstream?.close();
    await database?.drop();
  });

  it('loads failures through 429, 500 and a truncated body, paging by meta.total', async () => {
    const { code, summary, stderr } = await ingestJson(['fdic-failures', '--page-size', '3'], env);
    expect(code, stderr).toBe(0);
    expect(summary).toMatchObject({ ok: true, read: 5, inserted: 5, rejected: 0, dataset_version: 1 });
    expect(summary.upstream).toBe(`${upstream.baseUrl}/banks/failures`);
    expect(stderr).toMatch(/HTTP 429/);
    expect(stderr).toMatch(/HTTP 500/);
    expect(stderr).toMatch(/truncated body|body interrupted|other side closed|JSON/i);
    expect(stderr).not.toContain(SECRET);
    const failureRequests = upstream.requests.filter((r) => r.startsWith('/banks/failures'));
    expect(failureRequests).toHaveLength(5);
    expect(failureRequests.every((r) => r.includes(`api_key=${SECRET}`))).toBe(true);
    expect(failureRequests.at(-1)).toContain('offset=3');

    const { body } = await api.get('/api/v1/failures');
    expect(body.total).toBe(5);
    const payout = body.data.find((f: { closing_date: string }) => f.closing_date === '1934-05-28');
    expect(payout).toMatchObject({ cert: null, acquiring_institution: null, state: 'IL', total_assets: 374 });
    expect(payout.estimated_loss).toBeNull();
    const svb = body.data.find((f: { cert: number }) => f.cert === 24735);
    expect(svb).toMatchObject({
      name: 'SILICON VALLEY BANK',
      state: 'CA',
      closing_date: '2023-03-10',
      acquiring_institution: 'FIRST–CITIZENS BANK & TRUST COMPANY'.replace('–', '-'),
    });
  });

  it('loads institutions (active and inactive) with MM/DD/YYYY dates and omitted fields as null', async () => {
    const { code, summary, stderr } = await ingestJson(['fdic-institutions'], env);
    expect(code, stderr).toBe(0);
    expect(summary).toMatchObject({ ok: true, read: 4, inserted: 4 });
    const all = await api.get('/api/v1/banks?active=all&sortBy=name&sortDir=asc');
    expect(all.body.total).toBe(4);
    const jpm = all.body.data.find((b: { cert: number }) => b.cert === 628);
    expect(jpm).toMatchObject({
      state: 'OH',
      charter_class: 'N',
      asset_size: 3813431000,
      established: '1824-01-01',
      holding_company: 'JPMORGAN CHASE&CO',
    });
    const ergo = all.body.data.find((b: { cert: number }) => b.cert === 10004);
    expect(ergo).toMatchObject({ established: null, holding_company: null });
    const active = await api.get('/api/v1/banks');
    expect(active.body.data.map((b: { cert: number }) => b.cert)).not.toContain(57053);
  });

  it('loads financials one report date per request (YYYYMMDD) between --since and --until', async () => {
    const { code, summary, stderr } = await ingestJson(
      ['fdic-financials', '--since', '2023-12-31', '--until', '2024-12-31'],
      env,
    );
    expect(code, stderr).toBe(0);
    expect(summary).toMatchObject({ ok: true, read: 6, inserted: 6 });
    const filters = upstream.requests
      .filter((r) => r.startsWith('/banks/financials'))
      .map((r) => new URL(r, 'http://x').searchParams.get('filters'));
    expect(filters).toEqual(
      ['20231231', '20240331', '20240630', '20240930', '20241231'].map((d) => `REPDTE:${d}`),
    );
    const { body } = await api.get('/api/v1/financials?cert=3511');
    expect(body.data.map((r: { report_date: string }) => r.report_date)).toEqual([
      '2024-12-31',
      '2023-12-31',
    ]);
    expect(body.data[1]).toMatchObject({ total_assets: 1733244000, roa: 1.2920837808883454, roe: 13.56 });
    expect(body.data[1].tier1_leverage).toBeNull();
  });

  it('is idempotent: a re-run serves the same rows under a new dataset version', async () => {
    const before = await api.get('/api/v1/failures');
    const { summary } = await ingestJson(['fdic-failures'], env);
    // Failures have no natural key: a load replaces them all, reported as the net change (5 for 5).
    expect(summary).toMatchObject({ ok: true, read: 5, inserted: 0, updated: 5, removed: 0 });
    const again = await ingestJson(['fdic-institutions'], env);
    expect(again.summary).toMatchObject({ ok: true, read: 4, inserted: 0, updated: 4, removed: 0 });
    const after = await api.get('/api/v1/failures');
    expect(after.body).toEqual(before.body);
    const meta = await api.get('/api/v1/meta');
    const failures = meta.body.sources.find((s: { source: string }) => s.source === 'fdic-failures');
    expect(failures).toMatchObject({ loaded: true, is_demo: false, rows: 5 });
    expect(failures.checksum).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(meta.body.dataset_version).toBe(again.summary.dataset_version);
  });

  it('gives up with the URL named, exit 1, and the served data untouched', async () => {
    const failing = await startUpstream({ '/banks/failures': () => ({ status: 503, body: 'down' }) });
    try {
      const versionBefore = (await api.get('/api/v1/meta')).body.dataset_version;
      const { code, summary } = await ingestJson(['fdic-failures'], {
        ...env,
        FDIC_API_URL: `${failing.baseUrl}/banks`,
        INGEST_MAX_RETRIES: '2',
      });
      expect(code).toBe(1);
      expect(summary.ok).toBe(false);
      expect(summary.error).toContain(`${failing.baseUrl}/banks/failures?`);
      expect(summary.error).toMatch(/after 3 attempt\(s\): HTTP 503/);
      expect(summary.error).not.toContain(SECRET);
      expect(failing.requests).toHaveLength(3);
      expect((await api.get('/api/v1/failures')).body.total).toBe(5);
      expect((await api.get('/api/v1/meta')).body.dataset_version).toBe(versionBefore);
    } finally {
      await failing.close();
    }
  });

  it('splits a slice larger than the 10,000-row result window by CERT range', {
    timeout: 120_000,
  }, async () => {
    const filters: string[] = [];
    const big = await startUpstream({ '/banks/institutions': windowedInstitutions(25_000, filters) });
    try {
      // The 25,000 synthetic institutions replace the earlier tests' ones, which they do not contain.
      const args = ['fdic-institutions', '--page-size', '10000', '--allow-shrink'];
      const { code, summary, stderr } = await ingestJson(args, {
        ...env,
        FDIC_API_URL: `${big.baseUrl}/banks`,
      });
      expect(code, stderr).toBe(0);
      expect(summary).toMatchObject({ ok: true, read: 25_000, rejected: 0 });
      expect(filters[0]).toBe('');
      expect(filters.some((f) => /^CERT:\[\d+ TO \d+\]$/.test(f))).toBe(true);
      const all = await api.get('/api/v1/banks?active=all&limit=1');
      expect(all.body.total).toBe(25_000);
      const inactive = await api.get('/api/v1/banks?active=false&limit=1');
      expect(inactive.body.total).toBe(Math.floor(25_000 / 3));
    } finally {
      await big.close();
    }
  });
});
