/**
 * The identity graph (SPEC §7) built by real loads (`regdata ingest` subprocesses) on both backends:
 * small BankFind-format records for every link rule — identifier links, a bank that is itself the
 * registrant with "National Association" written out, a bank without holding company, a holding
 * company changing between report dates, a veto and a manual link from an overrides file — and the
 * precision on 100 hand-labelled holding companies (test/fixtures/identity/bhc-labels.json) matched
 * against SEC's real company tickers, from ../shared/realdata.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Backend, type TestDatabase, testBackends } from '../helpers/backends.js';
import { type ApiUnderTest, openApi } from '../ingest/helpers/api.js';
import { ingestJson, REPO_ROOT } from '../ingest/helpers/cli.js';
import { readCsv, realdata, sharedAvailable } from '../ingest/helpers/shared.js';

function page(dir: string, name: string, records: readonly object[]): string {
  const path = join(dir, name);
  writeFileSync(
    path,
    JSON.stringify({ meta: { total: records.length }, data: records.map((data) => ({ data })) }),
  );
  return path;
}

const BANKS = [
  {
    CERT: 101,
    NAME: 'Alpha Bank',
    STALP: 'OH',
    ACTIVE: 1,
    FED_RSSD: 5001,
    RSSDHCR: 9001,
    NAMEHCR: 'ALPHA FINANCIAL CORP.',
    ASSET: 900_000,
  },
  {
    CERT: 102,
    NAME: 'Alpha Bank West',
    STALP: 'IN',
    ACTIVE: 1,
    FED_RSSD: 5002,
    RSSDHCR: 9001,
    NAMEHCR: 'ALPHA FINANCIAL CORP.',
    ASSET: 100_000,
  },
  // Its own registrant: no holding company, "National Association" written out.
  {
    CERT: 103,
    NAME: 'Example Trust Bank, National Association',
    STALP: 'NY',
    ACTIVE: 1,
    FED_RSSD: 5003,
    RSSDHCR: 0,
    NAMEHCR: '',
    ASSET: 500_000,
  },
  // No holding company and no registrant.
  {
    CERT: 104,
    NAME: 'Lonely Savings Bank',
    STALP: 'KS',
    ACTIVE: 1,
    FED_RSSD: 5004,
    RSSDHCR: 0,
    NAMEHCR: '',
    ASSET: 50_000,
  },
  // Moved from Beta Bancorp to Gamma Holdings between the two report dates.
  {
    CERT: 105,
    NAME: 'Beta Community Bank',
    STALP: 'TX',
    ACTIVE: 1,
    FED_RSSD: 5005,
    RSSDHCR: 9003,
    NAMEHCR: 'GAMMA HOLDINGS, INC.',
    ASSET: 200_000,
  },
  // The matcher would link Delta to a registrant of the same name; the overrides veto it.
  {
    CERT: 106,
    NAME: 'Delta Bank',
    STALP: 'FL',
    ACTIVE: 1,
    FED_RSSD: 5006,
    RSSDHCR: 9004,
    NAMEHCR: 'DELTA BANCSHARES INC',
    ASSET: 70_000,
  },
];

const FINANCIALS = [
  ...['20240331', '20240630'].flatMap((REPDTE) =>
    BANKS.filter((b) => b.CERT !== 105).map((b) => ({
      CERT: b.CERT,
      REPDTE,
      ASSET: b.ASSET,
      RSSDHCR: b.RSSDHCR,
      NAMEHCR: b.NAMEHCR,
    })),
  ),
  { CERT: 105, REPDTE: '20240331', ASSET: 190_000, RSSDHCR: 9002, NAMEHCR: 'BETA BANCORP' },
  { CERT: 105, REPDTE: '20240630', ASSET: 200_000, RSSDHCR: 9003, NAMEHCR: 'GAMMA HOLDINGS, INC.' },
];

const REGISTRANTS = {
  fields: ['cik', 'name', 'ticker', 'exchange'],
  data: [
    [11, 'Alpha Financial Corp /OH/', 'ALPH', 'Nasdaq'],
    [11, 'Alpha Financial Corp /OH/', 'ALPHP', 'Nasdaq'],
    [12, 'EXAMPLE TRUST BANK N A', 'EXTB', 'OTC'],
    [13, 'Delta Bancshares, Inc.', 'DLTA', 'NYSE'],
    [14, 'Gamma Holdings Inc', 'GAMH', 'NYSE'],
    [15, 'Omega Insurance Group', 'OMGA', 'NYSE'],
  ],
};

const OVERRIDES = {
  links: [
    { from: 'rssd:9002', relation: 'registered_as', to: 'cik:0000000015', note: 'test: a manual link' },
  ],
  vetoes: [
    { from: 'rssd:9004', relation: 'registered_as', to: 'cik:0000000013', note: 'test: a wrong match' },
  ],
};

interface Labelled {
  rssd: number;
  name: string;
  cik: string;
}

describe.each(testBackends())('identity graph on $name', (backend: Backend) => {
  let database: TestDatabase;
  let api: ApiUnderTest;
  let env: Record<string, string>;
  let dir: string;

  beforeAll(async () => {
    database = await backend.create();
    dir = mkdtempSync(join(tmpdir(), 'regdata-identity-'));
    const overrides = join(dir, 'overrides.json');
    writeFileSync(overrides, JSON.stringify(OVERRIDES));
    env = { DATABASE_URL: database.url, ENTITY_OVERRIDES_FILE: overrides };
    for (const args of [
      ['fdic-institutions', '--from', page(dir, 'banks.json', BANKS)],
      ['fdic-financials', '--from', page(dir, 'financials.json', FINANCIALS)],
      ['sec-registrants', '--from', join(dir, 'tickers.json')],
    ]) {
      writeFileSync(join(dir, 'tickers.json'), JSON.stringify(REGISTRANTS));
      const result = await ingestJson(args, env);
      expect(result.code, result.stderr).toBe(0);
    }
    api = await openApi(database);
  }, 180_000);
  afterAll(async () => {
    await api?.close();
    await database?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  const links = async (id: string) =>
    (await api.get(`/api/entities/resolve?id=${encodeURIComponent(id)}`)).body.links;

  it('links banks to their holding company by RSSD and the company to its registrant by name', async () => {
    const { status, body } = await api.get('/api/entities/resolve?id=rssd:9001');
    expect(status).toBe(200);
    expect(body.entity).toMatchObject({
      id: 'rssd:9001',
      kind: 'holding_company',
      name: 'ALPHA FINANCIAL CORP.',
    });
    const own = body.links.filter((l: { hops: number }) => l.hops === 1);
    expect(
      own
        .filter((l: { relation: string }) => l.relation === 'subsidiary_of')
        .map((l: { from: { id: string } }) => l.from.id)
        .sort(),
    ).toEqual(['cert:101', 'cert:102']);
    const registration = own.find((l: { relation: string }) => l.relation === 'registered_as');
    expect(registration).toMatchObject({
      to: { id: 'cik:0000000011', kind: 'sec_registrant' },
      method: 'name_match',
      confidence: 1,
    });
    const bank = own.find((l: { from: { id: string } }) => l.from.id === 'cert:101');
    expect(bank).toMatchObject({
      method: 'identifier',
      confidence: 1,
      valid_from: '2024-03-31',
      valid_to: null,
      source: 'fdic-financials',
    });
  });

  it('a ticker leads back to the banks of its registrant (two hops)', async () => {
    const { body } = await api.get('/api/entities/resolve?id=ticker:alphp');
    expect(body.entity).toMatchObject({ id: 'cik:0000000011', kind: 'sec_registrant' });
    expect(body.entity.identifiers.tickers).toEqual(['ALPH', 'ALPHP']);
    const banks = body.links.filter(
      (l: { hops: number; relation: string }) => l.hops === 2 && l.relation === 'subsidiary_of',
    );
    expect(banks.map((l: { from: { id: string } }) => l.from.id).sort()).toEqual(['cert:101', 'cert:102']);
  });

  it('a bank without a holding company can be its own registrant; another has neither', async () => {
    const own = await api.get('/api/v1/banks/103/profile');
    expect(own.status).toBe(200);
    expect(own.body.holding_company).toBeNull();
    expect(own.body.registrant).toEqual({
      cik: '0000000012',
      name: 'EXAMPLE TRUST BANK N A',
      ticker: 'EXTB',
      exchange: 'OTC',
    });
    const lonely = await api.get('/api/v1/banks/104/profile');
    expect(lonely.body).toMatchObject({
      holding_company: null,
      registrant: null,
      institutional_ownership: null,
      files_13f: null,
      links: [],
    });
  });

  it('dates the links of a bank that changed holding company between report dates', async () => {
    const parents = (await links('cert:105')).filter(
      (l: { hops: number; relation: string }) => l.hops === 1 && l.relation === 'subsidiary_of',
    );
    expect(
      parents.map((l: { to: { id: string }; valid_from: string; valid_to: string | null }) => [
        l.to.id,
        l.valid_from,
        l.valid_to,
      ]),
    ).toEqual([
      ['rssd:9002', '2024-03-31', '2024-03-31'],
      ['rssd:9003', '2024-06-30', null],
    ]);
    const profile = await api.get('/api/v1/banks/105/profile');
    expect(profile.body.holding_company).toEqual({
      id: 'rssd:9003',
      name: 'GAMMA HOLDINGS, INC.',
      rssd_id: 9003,
    });
    expect(profile.body.registrant.cik).toBe('0000000014');
  });

  it('applies the overrides: a vetoed match is gone, a manual link is made', async () => {
    const delta = await links('rssd:9004');
    expect(delta.some((l: { relation: string }) => l.relation === 'registered_as')).toBe(false);
    expect((await api.get('/api/v1/banks/106/profile')).body.registrant).toBeNull();
    const beta = (await links('rssd:9002')).find((l: { relation: string }) => l.relation === 'registered_as');
    expect(beta).toMatchObject({
      to: { id: 'cik:0000000015', name: 'Omega Insurance Group' },
      method: 'manual',
      source: 'overrides',
      confidence: 1,
    });
  });

  it('answers bad ids with 400 and unknown ones with 404 (problem documents)', async () => {
    for (const id of [
      'cert',
      'isin:US0378331005',
      'cert:abc',
      'cik:12345678901',
      'cusip:12345',
      'ticker:',
      'ticker:AB CD',
    ]) {
      const { status, body } = await api.get(`/api/entities/resolve?id=${encodeURIComponent(id)}`);
      expect(status, id).toBe(400);
      expect(body.type, id).toBeTruthy();
    }
    expect((await api.get('/api/entities/resolve')).status).toBe(400);
    for (const id of ['cert:999999', 'rssd:1', 'cik:999', 'crd:1', 'cusip:000000000', 'ticker:NOPE']) {
      expect((await api.get(`/api/entities/resolve?id=${id}`)).status, id).toBe(404);
    }
    expect((await api.get('/api/v1/banks/999999/profile')).status).toBe(404);
    expect((await api.get('/api/v1/banks/-1/profile')).status).toBe(400);
    expect((await api.get('/api/v1/banks/abc/profile')).status).toBe(400);
  });

  const labelsFile = join(REPO_ROOT, 'test/fixtures/identity/bhc-labels.json');
  const SDI = 'fdic_financials/fdic_sdi_all_reports_20190331_assets_and_liabilities.csv';
  const TICKERS = 'sec_tickers/company_tickers_exchange_2023-05.json';
  const shared = sharedAvailable([SDI, TICKERS], 'identity precision on hand-labelled holding companies');

  it.skipIf(!shared)(
    'links 100 hand-labelled holding companies to SEC registrants: none wrongly',
    { timeout: 180_000 },
    async () => {
      const labels = JSON.parse(readFileSync(labelsFile, 'utf8')) as Labelled[];
      expect(labels).toHaveLength(100);
      // Every bank of the 2019-03-31 SDI file, with its top holding company, as BankFind writes it.
      const banks = readCsv(SDI).map((r) => ({
        CERT: Number(r.cert),
        NAME: r.name,
        STALP: r.stalp,
        ACTIVE: 1,
        FED_RSSD: Number(r.fed_rssd),
        RSSDHCR: Number(r.rssdhcr || 0),
        NAMEHCR: r.namehcr,
        ASSET: Number(r.asset),
      }));
      const realEnv = { DATABASE_URL: database.url }; // the checked-in overrides
      for (const args of [
        ['fdic-institutions', '--from', page(dir, 'sdi.json', banks), '--allow-shrink'],
        ['sec-registrants', '--from', realdata(TICKERS), '--allow-shrink'],
      ]) {
        const result = await ingestJson(args, realEnv);
        expect(result.code, `${result.stderr}\n${JSON.stringify(result.summary)}`).toBe(0);
      }
      const linked = await database.writer.db
        .selectFrom('entity_links')
        .select(['from_id', 'to_id', 'method'])
        .where('relation', '=', 'registered_as')
        .execute();
      const registrantOf = new Map(linked.map((l) => [l.from_id, l]));
      let correct = 0;
      const wrong: string[] = [];
      const missed: string[] = [];
      for (const label of labels) {
        const link = registrantOf.get(`rssd:${label.rssd}`);
        if (!link) missed.push(label.name);
        else if (link.to_id === `cik:${label.cik}`) correct += 1;
        else wrong.push(`${label.name} → ${link.to_id}`);
      }
      const byMatcher = linked.filter((l) => l.method === 'name_match').length;
      console.info(
        `identity precision (${backend.name}): ${correct} of 100 linked correctly, ${wrong.length} wrongly, ${missed.length} not at all (${byMatcher} name-matched registrations in all); missed: ${missed.join('; ')}`,
      );
      expect(wrong).toEqual([]);
      expect(correct).toBeGreaterThanOrEqual(90);
    },
  );

  const ADV = 'sec_adv/sec_registered_advisers_2026-02.csv';
  const FILING = 'sec_13f/13F-HR_0001951757-25-000093_nc.txt';
  const advisersShared = sharedAvailable([ADV, FILING], 'identity: real Form ADV and 13F filing');

  it.skipIf(!advisersShared)(
    'links a real adviser to its real 13F filing by name, city and state',
    { timeout: 180_000 },
    async () => {
      // The 2025 filing (CIK 1994827, filed by an agent) of ACORN CREEK CAPITAL LLC (Fort Collins, CO)
      // names no CRD on its cover page;
      // Form ADV lists CRD 325809 under the same name in the same city and state.
      for (const args of [
        ['sec-advisers', '--from', realdata(ADV)],
        ['sec-13f-filing', '--from', realdata(FILING)],
      ]) {
        const result = await ingestJson(args, { DATABASE_URL: database.url });
        expect(result.code, `${result.stderr}\n${JSON.stringify(result.summary)}`).toBe(0);
      }
      const adviser = await api.get('/api/advisers/325809');
      expect(adviser.body).toMatchObject({ name: 'ACORN CREEK CAPITAL LLC', cik: '0001994827' });
      const portfolio = await api.get('/api/holdings/1994827');
      expect(portfolio.body.crd).toBe(325809);
      const { body } = await api.get('/api/entities/resolve?id=crd:325809');
      expect(body.links.find((l: { relation: string }) => l.relation === 'same_firm_as')).toMatchObject({
        to: { id: 'cik:0001994827', kind: 'manager' },
        method: 'name_match',
        confidence: 1,
        source: 'sec-advisers',
      });
    },
  );
});
