/**
 * `as_of` on /api/holdings/{cik}, /api/holdings/{cik}/changes and /api/crowded (SPEC §8) over the
 * demo on both backends: answers before and after an amendment, recomputed here from the raw filing
 * rows with SPEC §3's rules (latest original, a RESTATEMENT replaces, NEW HOLDINGS adds), values in
 * dollars summed then shown in thousands.
 */
import { describe, expect, it } from 'vitest';
import { buildHoldingsDemo } from '../../src/demo/holdings/index.js';
import { DEFAULT_DEMO_SEED } from '../../src/demo/index.js';
import { decodeInfoRows, type InfoRowFields } from '../../src/ingest/sources/sec/holdings/info-row-codec.js';
import { getJson, useTestApp, withAppOn } from '../helpers/app.js';
import { testBackends } from '../helpers/backends.js';

interface Filing {
  accession_number: string;
  cik: string;
  quarter: string;
  filing_date: string;
  form_type: string;
  amendment_type: string | null;
}

/** SPEC §3, written here independently: which filings make up a manager's quarter by `day`. */
function applied(filings: readonly Filing[], day: string): Filing[] {
  const reports = filings
    .filter((f) => f.filing_date <= day && (f.form_type === '13F-HR' || f.form_type === '13F-HR/A'))
    .sort(
      (a, b) =>
        a.filing_date.localeCompare(b.filing_date) || a.accession_number.localeCompare(b.accession_number),
    );
  let base = -1;
  reports.forEach((f, i) => {
    if (f.form_type === '13F-HR') base = i;
  });
  let set: Filing[] = base >= 0 ? [reports[base] as Filing] : [];
  for (const f of reports.slice(Math.max(base + 1, 0))) {
    if (f.form_type !== '13F-HR/A') continue;
    if ((f.amendment_type ?? 'RESTATEMENT') === 'RESTATEMENT') set = [f];
    else if (set.length > 0) set.push(f);
  }
  return set;
}

describe.each(testBackends())('as_of on $name', (backend) => {
  const ctx = useTestApp(backend, (writer) =>
    buildHoldingsDemo(writer, { seed: DEFAULT_DEMO_SEED, scale: 'small' }),
  );
  const db = () => ctx.database.writer.db;

  async function filingsOf(quarter: string): Promise<Filing[]> {
    return db()
      .selectFrom('filings_13f')
      .select(['accession_number', 'cik', 'quarter', 'filing_date', 'form_type', 'amendment_type'])
      .where('quarter', '=', quarter)
      .execute();
  }

  async function rowsOf(accessions: readonly string[]): Promise<Map<string, InfoRowFields[]>> {
    const out = new Map<string, InfoRowFields[]>();
    for (let i = 0; i < accessions.length; i += 200) {
      const records = await db()
        .selectFrom('info_tables_13f')
        .select(['accession_number', 'rows'])
        .where('accession_number', 'in', accessions.slice(i, i + 200))
        .execute();
      for (const r of records)
        out.set(r.accession_number, [...(out.get(r.accession_number) ?? []), ...decodeInfoRows(r.rows)]);
    }
    return out;
  }

  /** Positions (key CUSIP|type|put/call) in thousands, from the raw rows of the applied filings. */
  function positions(set: readonly Filing[], rows: Map<string, InfoRowFields[]>) {
    type Sum = {
      cusip: string;
      type: string;
      putCall: string | null;
      equity: boolean;
      dollars: number;
      shares: number;
    };
    const sums = new Map<string, Sum>();
    for (const f of set)
      for (const row of rows.get(f.accession_number) ?? []) {
        const cusip = row[0].toUpperCase();
        const type = row[5].trim().toUpperCase();
        const putCall = row[6] === null ? null : row[6].trim().toUpperCase() || null;
        const key = `${cusip}|${type}|${putCall ?? ''}`;
        const sum = sums.get(key) ?? {
          cusip,
          type,
          putCall,
          equity: type === 'SH' && putCall === null,
          dollars: 0,
          shares: 0,
        };
        sum.dollars += row[3];
        sum.shares += row[4];
        sums.set(key, sum);
      }
    return [...sums.values()].map((s) => ({ ...s, value: s.dollars / 1000 }));
  }

  it('a portfolio before an amendment is the filings of that day; after it, the stored one', async () => {
    const quarters = ((await getJson(ctx.app, '/api/stats')).body.quarters as string[]).slice(0, -1);
    let checked = 0;
    for (const quarter of quarters) {
      const filings = await filingsOf(quarter);
      const amended = filings.filter((f) => f.form_type === '13F-HR/A').slice(0, 3);
      for (const amendment of amended) {
        const own = filings.filter((f) => f.cik === amendment.cik);
        const base = own.find((f) => f.form_type === '13F-HR');
        if (!base || base.filing_date >= amendment.filing_date) continue;
        const dayBefore = new Date(Date.parse(`${amendment.filing_date}T00:00:00Z`) - 86_400_000)
          .toISOString()
          .slice(0, 10);
        const set = applied(own, dayBefore);
        const expected = positions(set, await rowsOf(set.map((f) => f.accession_number)));
        const before = await getJson(
          ctx.app,
          `/api/holdings/${amendment.cik}?quarter=${quarter}&as_of=${dayBefore}`,
        );
        expect(before.status).toBe(200);
        expect(before.body.position_count).toBe(expected.length);
        expect(before.body.total_value).toBeCloseTo(
          expected.reduce((a, p) => a + p.value, 0),
          2,
        );
        expect(before.body.filed_at).toBe(set.at(-1)?.filing_date);
        // Every holding as the raw rows give it, in the portfolio's order (value descending).
        const byKey = new Map(expected.map((p) => [`${p.cusip}|${p.type}|${p.putCall ?? ''}`, p]));
        let previous = Number.POSITIVE_INFINITY;
        for (const h of before.body.holdings) {
          const p = byKey.get(`${h.cusip}|${h.share_type}|${h.put_call ?? ''}`);
          expect(h.value).toBeCloseTo(p?.value ?? Number.NaN, 2);
          expect(h.shares).toBeCloseTo(p?.shares ?? Number.NaN, 4);
          expect(h.value).toBeLessThanOrEqual(previous);
          previous = h.value;
        }
        // The same answer again (the packed state kept as a read index) and with read indexes off.
        const url = `/api/holdings/${amendment.cik}?quarter=${quarter}&as_of=${dayBefore}`;
        expect((await getJson(ctx.app, url)).body).toEqual(before.body);
        const unindexed = await withAppOn(ctx.database, { readIndexMaxBytes: 0 }, (app) => getJson(app, url));
        expect(unindexed.body).toEqual(before.body);
        const after = await getJson(
          ctx.app,
          `/api/holdings/${amendment.cik}?quarter=${quarter}&as_of=${amendment.filing_date}`,
        );
        const stored = await getJson(ctx.app, `/api/holdings/${amendment.cik}?quarter=${quarter}`);
        if (applied(own, amendment.filing_date).length === applied(own, '9999-12-31').length)
          expect(after.body).toEqual(stored.body);
        // Changes as of the day before: both sides as they stood then.
        const changes = await getJson(
          ctx.app,
          `/api/holdings/${amendment.cik}/changes?quarter=${quarter}&as_of=${dayBefore}&limit=1000`,
        );
        expect(changes.status).toBe(200);
        const equity = new Map(expected.filter((p) => p.equity).map((p) => [p.cusip, p.value]));
        for (const row of changes.body.data)
          expect(row.value_after).toBeCloseTo(equity.get(row.cusip) ?? 0, 2);
        const counts = changes.body.summary;
        expect(counts.new + counts.added + counts.reduced + counts.unchanged + counts.sold_out).toBe(
          changes.body.total,
        );
        expect(changes.body.data.filter((r: { status: string }) => r.status !== 'sold_out').length).toBe(
          equity.size,
        );
        checked += 1;
      }
    }
    expect(checked).toBeGreaterThan(0);
  });

  it('crowded as of a day counts what had been filed by then, recomputed from the raw rows', async () => {
    const progress = (await getJson(ctx.app, '/api/filing-progress')).body;
    const filings = await filingsOf(progress.quarter);
    const days = [...new Set(filings.map((f) => f.filing_date))].sort();
    const day = days[Math.floor(days.length / 2)] as string;
    const byCik = new Map<string, Filing[]>();
    for (const f of filings) byCik.set(f.cik, [...(byCik.get(f.cik) ?? []), f]);
    const sets = [...byCik.values()].map((own) => applied(own, day)).filter((set) => set.length > 0);
    const rows = await rowsOf(sets.flat().map((f) => f.accession_number));
    const tally = new Map<string, { managers: number; value: number }>();
    for (const set of sets)
      for (const p of positions(set, rows)) {
        if (!p.equity) continue;
        const t = tally.get(p.cusip) ?? { managers: 0, value: 0 };
        t.managers += 1;
        t.value += p.value;
        tally.set(p.cusip, t);
      }
    const expected = [...tally]
      .sort(([a, x], [b, y]) => y.managers - x.managers || y.value - x.value || (a < b ? -1 : 1))
      .slice(0, 20);
    const { status, body } = await getJson(
      ctx.app,
      `/api/crowded?quarter=${progress.quarter}&as_of=${day}&limit=20`,
    );
    expect(status).toBe(200);
    expect(
      body.data.map((r: { cusip: string; manager_count: number }) => [r.cusip, r.manager_count]),
    ).toEqual(expected.map(([cusip, t]) => [cusip, t.managers]));
    for (const [i, row] of (body.data as { total_value: number }[]).entries())
      expect(row.total_value).toBeCloseTo(expected[i]![1].value, 1);
    // After the last filing day: the answer without as_of.
    const all = await getJson(ctx.app, `/api/crowded?quarter=${progress.quarter}&as_of=2099-01-01&limit=20`);
    expect(all.body.data).toEqual(
      (await getJson(ctx.app, `/api/crowded?quarter=${progress.quarter}&limit=20`)).body.data,
    );
  });

  it('crowded as of a day without a quarter: the latest quarter with a 13F-HR filed by then', async () => {
    const filings = await db()
      .selectFrom('filings_13f')
      .select(['quarter', 'filing_date', 'form_type'])
      .execute();
    // Each quarter's first 13F-HR filing day, from the raw filings.
    const opens = new Map<string, string>();
    for (const f of filings) {
      if (f.form_type !== '13F-HR') continue;
      const first = opens.get(f.quarter);
      if (first === undefined || f.filing_date < first) opens.set(f.quarter, f.filing_date);
    }
    const quarters = [...opens.keys()].sort();
    expect(quarters.length).toBeGreaterThan(1);
    const latest = quarters.at(-1) as string;
    const opened = opens.get(latest) as string;
    const dayBefore = new Date(Date.parse(`${opened}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
    const expectedOn = (day: string) => quarters.filter((q) => (opens.get(q) as string) <= day).at(-1);
    for (const day of [opened, dayBefore, '2099-01-01']) {
      const { status, body } = await getJson(ctx.app, `/api/crowded?as_of=${day}&limit=5`);
      expect(status, day).toBe(200);
      expect(body.quarter, day).toBe(expectedOn(day));
    }
    expect(expectedOn(dayBefore)).not.toBe(latest);
  });

  it('answers a manager that had not filed with 404, a bad as_of with 400', async () => {
    const manager = (await getJson(ctx.app, '/api/holdings?limit=1')).body.data[0];
    expect((await getJson(ctx.app, `/api/holdings/${manager.cik}?as_of=2000-01-01`)).status).toBe(404);
    expect((await getJson(ctx.app, `/api/holdings/${manager.cik}/changes?as_of=2000-01-01`)).status).toBe(
      404,
    );
    expect((await getJson(ctx.app, '/api/crowded?as_of=2000-01-01')).status).toBe(404);
    for (const bad of ['2026-02-30', 'today', '20260101']) {
      for (const url of [
        `/api/holdings/${manager.cik}?as_of=${bad}`,
        `/api/holdings/${manager.cik}/changes?as_of=${bad}`,
        `/api/crowded?as_of=${bad}`,
      ]) {
        const { status, body } = await getJson(ctx.app, url);
        expect(status, url).toBe(400);
        expect(body.errors[0].param, url).toBe('as_of');
      }
    }
  });
});
