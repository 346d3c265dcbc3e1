/**
 * The generated client against a real server (HTTP on 127.0.0.1, the small demo dataset on SQLite:
 * the client's concern is the HTTP contract, which the suites of test/http check on both backends).
 * Each answer is compared with the same request made without the client.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DbHandle } from '../../../src/db/connect.js';
import { buildBankingDemoWith } from '../../../src/demo/banking/index.js';
import { buildHoldingsDemo } from '../../../src/demo/holdings/index.js';
import { DEFAULT_DEMO_SEED } from '../../../src/demo/index.js';
import { useTestApp } from '../../../test/helpers/app.js';
import { testBackends } from '../../../test/helpers/backends.js';
import { type Answer, createRegdataClient, type Problem, type RegdataClient } from '../src/index.js';

const DEMO = { seed: DEFAULT_DEMO_SEED, scale: 'small' as const };
const sqlite = testBackends().find((backend) => backend.name === 'sqlite')!;

async function seed(writer: DbHandle) {
  await buildBankingDemoWith(writer, DEMO, { active: 200, inactive: 40 });
  await buildHoldingsDemo(writer, DEMO);
}

describe('the typed TypeScript client (clients/typescript) against a real server', () => {
  const ctx = useTestApp(sqlite, seed);
  let base = '';
  let regdata: RegdataClient;

  beforeAll(async () => {
    base = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    regdata = createRegdataClient(base);
  });
  afterAll(() => ctx.app.close());

  /** The same request without the client. */
  // biome-ignore lint/suspicious/noExplicitAny: the untyped answer the typed one is compared with
  async function plain(path: string): Promise<any> {
    const response = await fetch(base + path);
    return response.json();
  }

  it('lists banks with typed query parameters and typed records', async () => {
    const { data, error, response } = await regdata.GET('/api/v1/banks', {
      params: { query: { state: 'TX', sortBy: 'asset_size', limit: 5 } },
    });
    expect(error).toBeUndefined();
    expect(response.status).toBe(200);
    const banks: Answer<'bankingBanks'> = data!;
    expect(banks.data.length).toBeGreaterThan(0);
    for (const bank of banks.data) expect(bank.state).toBe('TX');
    expect(banks).toEqual(await plain('/api/v1/banks?state=TX&sortBy=asset_size&limit=5'));
  });

  it('fills path parameters (a bank profile, a manager’s changes)', async () => {
    const bank = (await plain('/api/v1/banks?limit=1')).data[0];
    const profile = await regdata.GET('/api/v1/banks/{cert}/profile', {
      params: { path: { cert: bank.cert } },
    });
    expect(profile.data?.bank.cert).toBe(bank.cert);

    const manager = (await plain('/api/holdings?limit=1')).data[0];
    const changes = await regdata.GET('/api/holdings/{cik}/changes', {
      params: { path: { cik: manager.cik } },
    });
    expect(changes.error).toBeUndefined();
    expect(changes.data).toEqual(await plain(`/api/holdings/${manager.cik}/changes`));
  });

  it('returns problem documents as typed errors (400 naming every bad parameter, 404)', async () => {
    const invalid = await regdata.GET('/api/v1/banks', { params: { query: { state: 'ZZ', limit: -1 } } });
    expect(invalid.data).toBeUndefined();
    expect(invalid.response.status).toBe(400);
    expect(invalid.response.headers.get('content-type')).toContain('application/problem+json');
    const problem: Problem = invalid.error!;
    expect(problem.type).toBe('/problems/invalid-parameter');
    expect(problem.errors?.map((e) => e.param).sort()).toEqual(['limit', 'state']);

    const unknown = await regdata.GET('/api/v1/banks/{cert}/profile', {
      params: { path: { cert: 9_999_999 } },
    });
    expect(unknown.response.status).toBe(404);
    expect(unknown.error?.type).toBe('/problems/not-found');
  });

  it('reads format=csv as text', async () => {
    const { data, response } = await regdata.GET('/api/v1/failures', {
      params: { query: { format: 'csv', limit: 3 } },
      parseAs: 'text',
    });
    expect(response.headers.get('content-type')).toContain('text/csv');
    const lines = (data as unknown as string).trim().split('\n');
    expect(lines).toHaveLength(4);
    expect(lines[0]).toContain('closing_date');
    expect(data).toBe(await (await fetch(`${base}/api/v1/failures?format=csv&limit=3`)).text());
  });
});
