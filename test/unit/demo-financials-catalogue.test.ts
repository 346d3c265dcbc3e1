/**
 * The banking demo fills every catalogue field coherently: parts sum to their totals, ratios follow
 * from their amounts, year-to-date flows are the sum of their quarters, counts are whole numbers,
 * values are missing only where financials-catalogue.ts says so, and the same seed gives the same
 * rows. Built by the real demo code into a real SQLite file and read back from it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FINANCIAL_FIELDS } from '../../src/banking/fields/catalogue.js';
import { ratioOf } from '../../src/banking/fields/ratios.js';
import type { FinancialRow } from '../../src/banking/fields/row.js';
import { DEMO_RATIOS } from '../../src/demo/banking/financials-catalogue.js';
import { buildBankingDemoWith } from '../../src/demo/banking/index.js';
import { type TestDatabase, testBackends } from '../helpers/backends.js';

/** Enough institutions for the rare cases (~2 % without brokered deposits) to occur; still fast. */
const COUNTS = { active: 600, inactive: 200 };
const SEED = 42;
const sqlite = testBackends().find((backend) => backend.name === 'sqlite')!;

/**
 * Fields null on most rows on purpose (financials-catalogue.ts): only banks with foreign offices
 * report foreign-office deposits.
 */
const MOSTLY_MISSING = new Set(['deposits_foreign']);

async function build(): Promise<{ database: TestDatabase; rows: FinancialRow[] }> {
  const database = await sqlite.create();
  await buildBankingDemoWith(database.writer, { seed: SEED, scale: 'small' }, COUNTS);
  const rows = (await database.writer.db
    .selectFrom('financials')
    .selectAll()
    .orderBy('cert')
    .orderBy('report_date')
    .execute()) as FinancialRow[];
  return { database, rows };
}

const relativeGap = (a: number, b: number) => Math.abs(a - b) / Math.max(1e-12, Math.abs(a), Math.abs(b));

describe('banking demo: every catalogue field, coherently', () => {
  let database: TestDatabase;
  let rows: FinancialRow[];

  beforeAll(async () => {
    ({ database, rows } = await build());
  }, 120_000);
  afterAll(async () => database?.drop());

  it('has rows of the demo source', () => {
    expect(rows.length).toBeGreaterThan(20_000);
    expect(rows.every((row) => row.source === 'demo')).toBe(true);
  });

  it('parts of a total sum to it exactly wherever they are all reported', () => {
    const parts = new Map<string, string[]>();
    for (const field of FINANCIAL_FIELDS) {
      if (field.demo && 'partOf' in field.demo)
        parts.set(field.demo.partOf, [...(parts.get(field.demo.partOf) ?? []), field.name]);
    }
    expect(parts.size).toBeGreaterThan(5);
    for (const [total, children] of parts) {
      let checked = 0;
      for (const row of rows) {
        const values = [total, ...children].map((name) => row[name]);
        if (values.some((value) => typeof value !== 'number')) continue;
        const sum = children.reduce((acc, name) => acc + (row[name] as number), 0);
        if (sum !== row[total])
          expect.fail(`${children.join(' + ')} ≠ ${total} for ${row.cert} ${row.report_date}`);
        checked++;
      }
      expect(checked, total).toBeGreaterThan(rows.length * 0.9);
    }
  });

  it('every ratio follows from its amounts: the catalogue rule, or the demo own rule where there is none', () => {
    for (const field of FINANCIAL_FIELDS.filter((f) => f.kind === 'ratio')) {
      const own = DEMO_RATIOS[field.name];
      expect(field.ratio !== undefined || own !== undefined, `${field.name} has a rule`).toBe(true);
      let checked = 0;
      for (const row of rows) {
        const value = row[field.name];
        if (value === null) continue;
        const expected = field.ratio
          ? ratioOf(field.ratio, row)
          : (100 * own!.scale * own!.numerator.reduce((sum, name) => sum + (row[name] as number), 0)) /
            (row[own!.denominator] as number);
        if (typeof expected !== 'number' || relativeGap(value as number, expected) > 1e-9)
          expect.fail(
            `${field.name} = ${value}, its amounts give ${expected} (${row.cert} ${row.report_date})`,
          );
        checked++;
      }
      expect(checked, field.name).toBeGreaterThan(0);
    }
  });

  it('ROA is year-to-date net income, annualised, over total assets', () => {
    const row = rows.find((r) => r.report_date === '2025-06-30' && typeof r.net_income === 'number')!;
    expect(row.roa).toBeCloseTo((100 * (row.net_income as number) * 2) / (row.total_assets as number), 9);
  });

  it('every field is reported on at least 90 % of rows, apart from the documented cases', () => {
    for (const field of FINANCIAL_FIELDS) {
      const present = rows.filter((row) => row[field.name] !== null).length;
      if (MOSTLY_MISSING.has(field.name)) {
        expect(present, field.name).toBeGreaterThan(0);
        expect(present, field.name).toBeLessThan(rows.length * 0.5);
      } else expect(present / rows.length, field.name).toBeGreaterThanOrEqual(0.9);
    }
  });

  it('a few banks never report brokered deposits or regulatory capital', () => {
    const banksWhere = (test: (row: FinancialRow) => boolean) => {
      const byBank = new Map<number, boolean>();
      for (const row of rows) byBank.set(row.cert, (byBank.get(row.cert) ?? true) && test(row));
      return [...byBank.values()].filter(Boolean).length / byBank.size;
    };
    const noBrokered = banksWhere((row) => row.brokered_deposits === null);
    expect(noBrokered).toBeGreaterThan(0.005);
    expect(noBrokered).toBeLessThan(0.05);
    const noCapital = banksWhere((row) => row.tier1_capital === null && row.tier1_leverage === null);
    expect(noCapital).toBeGreaterThan(0);
    expect(noCapital).toBeLessThan(0.05);
  });

  it('year-to-date flows are the sum of the year’s quarters (Q4 net income included)', () => {
    const pairs = FINANCIAL_FIELDS.filter((f) => f.kind === 'flow_quarter').map((f) => [
      f.name.replace(/_quarter$/, ''),
      f.name,
    ]);
    expect(pairs).toContainEqual(['net_income', 'net_income_quarter']);
    let years = 0;
    for (let i = 3; i < rows.length; i++) {
      const q4 = rows[i]!;
      const year = rows.slice(i - 3, i + 1);
      if (!q4.report_date.endsWith('-12-31')) continue;
      if (
        !year.every((row) => row.cert === q4.cert && row.report_date.startsWith(q4.report_date.slice(0, 4)))
      )
        continue;
      for (const [ytd, quarter] of pairs) {
        const sum = year.reduce((acc, row) => acc + (row[quarter!] as number), 0);
        expect(sum, `${ytd} ${q4.cert} ${q4.report_date}`).toBe(q4[ytd!]);
      }
      years++;
    }
    expect(years).toBeGreaterThan(1000);
  });

  it('amounts are whole thousands and counts whole numbers, offices and employees at least 1', () => {
    for (const field of FINANCIAL_FIELDS.filter((f) => f.kind !== 'ratio')) {
      for (const row of rows) {
        const value = row[field.name];
        if (value !== null && !Number.isInteger(value))
          expect.fail(`${field.name} = ${value} (${row.cert} ${row.report_date})`);
      }
    }
    for (const name of ['offices_domestic', 'offices_total', 'employees']) {
      expect(
        rows.every((row) => (row[name] as number) >= 1),
        name,
      ).toBe(true);
    }
    expect(rows.every((row) => (row.offices_foreign as number) >= 0)).toBe(true);
  });

  it('the same seed gives the same rows', async () => {
    const again = await build();
    try {
      expect(again.rows.length).toBe(rows.length);
      expect(JSON.stringify(again.rows)).toBe(JSON.stringify(rows));
    } finally {
      await again.database.drop();
    }
  }, 120_000);
});
