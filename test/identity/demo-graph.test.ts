/**
 * The identity graph of the demo (docs/identity.md, "The demo"), on both backends: every path is
 * there out of the box, and each figure the profile serves is recomputed here from stored rows —
 * institutional ownership from the positions of the registrant's security, the registrant's own 13F
 * total from its positions, dated parent links from the financials' holding company per report date.
 */
import { describe, expect, it } from 'vitest';
import type { DbHandle } from '../../src/db/connect.js';
import { buildBankingDemoWith } from '../../src/demo/banking/index.js';
import { buildHoldingsDemo } from '../../src/demo/holdings/index.js';
import { DEFAULT_DEMO_SEED } from '../../src/demo/index.js';
import { getJson, useTestApp } from '../helpers/app.js';
import { testBackends } from '../helpers/backends.js';
import { storedPositions } from '../helpers/positions.js';

const DEMO = { seed: DEFAULT_DEMO_SEED, scale: 'small' as const };

async function seed(writer: DbHandle) {
  await buildBankingDemoWith(writer, DEMO, { active: 600, inactive: 150 });
  await buildHoldingsDemo(writer, DEMO);
}

interface Link {
  relation: string;
  from: { id: string };
  to: { id: string; name: string };
  method: string;
  hops: number;
  valid_from: string | null;
  valid_to: string | null;
}

describe.each(testBackends())('the demo identity graph on $name', (backend) => {
  const ctx = useTestApp(backend, seed);
  const db = () => ctx.database.writer.db;

  /** Banks whose holding company is registered (by name or by the demo's manual link). */
  async function registeredBanks() {
    const registered = await db()
      .selectFrom('entity_links')
      .select(['from_id', 'to_id', 'method'])
      .where('relation', '=', 'registered_as')
      .execute();
    const banks = await db()
      .selectFrom('institutions')
      .select(['cert', 'holding_company_rssd'])
      .where('holding_company_rssd', 'is not', null)
      .orderBy('asset_size', 'desc')
      .execute();
    const registrantOf = new Map(registered.map((r) => [r.from_id, r]));
    return banks.flatMap((b) => {
      const link = registrantOf.get(`rssd:${b.holding_company_rssd}`);
      return link ? [{ cert: b.cert, cik: link.to_id.slice(4), method: link.method }] : [];
    });
  }

  it('links listed holding companies by name and one by the demo override; leaves some unlinkable', async () => {
    const banks = await registeredBanks();
    const methods = new Set(banks.map((b) => b.method));
    expect(methods).toEqual(new Set(['name_match', 'manual']));
    const candidates = await db().selectFrom('entity_link_candidates').select('relation').execute();
    expect(candidates.length).toBeGreaterThan(0);
  });

  it('serves a registered bank’s profile with ownership recomputed from the stored positions', async () => {
    let checked = 0;
    for (const { cert, cik } of (await registeredBanks()).slice(0, 8)) {
      const { status, body } = await getJson(ctx.app, `/api/v1/banks/${cert}/profile`);
      expect(status).toBe(200);
      expect(body.registrant.cik).toBe(cik);
      const ownership = body.institutional_ownership;
      if (ownership === null) continue;
      const rows = (
        await storedPositions(db(), { quarter: ownership.quarter, cusip: ownership.cusip })
      ).filter((p) => p.share_type === 'SH' && p.put_call === null);
      expect(ownership.holder_count).toBe(new Set(rows.map((r) => r.cik)).size);
      expect(ownership.total_value).toBeCloseTo(
        rows.reduce((sum, r) => sum + Number(r.value), 0),
        0,
      );
      const top = rows
        .map((r) => ({ cik: r.cik, value: Number(r.value) }))
        .sort((a, b) => b.value - a.value || (a.cik < b.cik ? -1 : 1))
        .slice(0, 10);
      expect(
        ownership.top_holders.map((h: { cik: string; value: number }) => ({ cik: h.cik, value: h.value })),
      ).toEqual(top);
      // Back from the ticker: the registrant, and this bank two links away.
      const resolved = await getJson(ctx.app, `/api/entities/resolve?id=ticker:${body.registrant.ticker}`);
      expect(resolved.body.entity.id).toBe(`cik:${cik}`);
      const banks = resolved.body.links.filter((l: Link) => l.relation === 'subsidiary_of' && l.hops === 2);
      expect(banks.map((l: Link) => l.from.id)).toContain(`cert:${cert}`);
      checked += 1;
    }
    expect(checked).toBeGreaterThan(3);
  });

  it('shows the 13F filings of registrants that file, equal to their stored portfolio total', async () => {
    const filers = await db()
      .selectFrom('entity_links')
      .select('from_id')
      .where('relation', '=', 'files_13f_as')
      .execute();
    expect(filers.length).toBeGreaterThan(0);
    let seen = 0;
    for (const { cert, cik } of await registeredBanks()) {
      if (!filers.some((f) => f.from_id === `cik:${cik}`)) continue;
      const { body } = await getJson(ctx.app, `/api/v1/banks/${cert}/profile`);
      const latest = (await storedPositions(db(), { cik })).reverse();
      const quarter = latest[0]?.quarter;
      const total = latest.filter((p) => p.quarter === quarter).reduce((sum, p) => sum + Number(p.value), 0);
      expect(body.files_13f).toMatchObject({ cik, latest_quarter: quarter });
      expect(body.files_13f.total_value).toBeCloseTo(total, 0);
      seen += 1;
    }
    expect(seen).toBeGreaterThan(0);
  });

  it('links advisers to 13F filers by CRD-derived CIK and by name, city and state, both ways', async () => {
    const links = await db()
      .selectFrom('entity_links')
      .select(['from_id', 'to_id', 'method'])
      .where('relation', '=', 'same_firm_as')
      .execute();
    const byName = links.filter((l) => l.method === 'name_match');
    expect(byName.length).toBeGreaterThanOrEqual(20);
    expect(links.some((l) => l.method === 'identifier')).toBe(true);
    for (const link of byName.slice(0, 10)) {
      const crd = link.from_id.slice(4);
      const stored = await db()
        .selectFrom('advisers')
        .select('cik')
        .where('crd', '=', Number(crd))
        .executeTakeFirstOrThrow();
      expect(stored.cik).toBeNull();
      const adviser = await getJson(ctx.app, `/api/advisers/${crd}`);
      expect(adviser.body.cik).toBe(link.to_id.slice(4));
      const portfolio = await getJson(ctx.app, `/api/holdings/${link.to_id.slice(4)}`);
      const crds = links.filter((l) => l.to_id === link.to_id).map((l) => Number(l.from_id.slice(4)));
      if (portfolio.status === 200) expect(crds).toContain(portfolio.body.crd);
    }
  });

  it('dates the parent links of banks that changed holding company, as their financials say', async () => {
    const moved = await db()
      .selectFrom('entity_links')
      .select('from_id')
      .where('relation', '=', 'subsidiary_of')
      .where('valid_to', 'is not', null)
      .execute();
    expect(moved.length).toBeGreaterThan(0);
    for (const { from_id } of moved.slice(0, 5)) {
      const cert = Number(from_id.slice(5));
      const rows = await db()
        .selectFrom('financials')
        .select(['report_date', 'holding_company_rssd'])
        .where('cert', '=', cert)
        .orderBy('report_date')
        .execute();
      const runs: [string, string, string | null][] = [];
      for (const row of rows) {
        const id = `rssd:${row.holding_company_rssd}`;
        const last = runs.at(-1);
        if (last && last[0] === id) last[2] = row.report_date;
        else runs.push([id, row.report_date, row.report_date]);
      }
      (runs.at(-1) as [string, string, string | null])[2] = null;
      const { body } = await getJson(ctx.app, `/api/entities/resolve?id=cert:${cert}`);
      const parents = body.links
        .filter((l: Link) => l.hops === 1 && l.relation === 'subsidiary_of')
        .map((l: Link) => [l.to.id, l.valid_from, l.valid_to])
        .sort((a: string[], b: string[]) => ((a[1] as string) < (b[1] as string) ? -1 : 1));
      expect(parents).toEqual(runs);
    }
  });
});
