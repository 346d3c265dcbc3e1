/**
 * The call-report field catalogue (src/banking/fields/catalogue.ts) against its contract in
 * src/banking/fields/types.ts and SPEC §5: size, unique snake_case names and FDIC codes, unit ↔ kind,
 * the 13 core fields unchanged, FFIEC formulas in the MdrmFormula grammar, ratio and demo rules that
 * name existing amounts (demo references acyclic, the parts of a total able to sum to it).
 *
 * With ../shared present (skipped with a message otherwise; REQUIRE_SHARED=1 fails instead), each
 * `fdic_field` must exist in FDIC's own field file and each description must be FDIC's text:
 * - the YAML `description` when FDIC gives one (not empty, `None` or `TBD`), verbatim;
 * - otherwise the SDI definitions file's text for the same variable, verbatim (its `<br>` line
 *   breaks read as spaces);
 * - otherwise (FDIC publishes no definition) a sentence written from FDIC's title, which the test
 *   can only hold to being a sentence that says more than the entry's title.
 * Whitespace is collapsed on both sides. Which rule applies follows from FDIC's files, not from the
 * `// definition:` comments in the family files (a test cannot read comments); the comments tell a
 * reader the same thing. The YAML is read by a small reader of its fixed layout (codes at indent 6,
 * their keys at indent 8), so the test needs no YAML dependency.
 */
import { readFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { FINANCIAL_FIELDS } from '../../src/banking/fields/catalogue.js';
import type { FinancialField } from '../../src/banking/fields/types.js';
import { realdata, sharedAvailable } from '../ingest/helpers/shared.js';

const byName = new Map(FINANCIAL_FIELDS.map((field) => [field.name, field]));

const CORE: Record<string, string> = {
  total_assets: 'ASSET',
  total_deposits: 'DEP',
  total_loans: 'LNLSGR',
  total_equity: 'EQ',
  net_income: 'NETINC',
  roa: 'ROA',
  roe: 'ROE',
  efficiency_ratio: 'EEFFR',
  npl_ratio: 'NCLNLSR',
  tier1_leverage: 'RBC1AAJ',
  equity_ratio: 'EQV',
  loan_to_deposit: 'LNLSDEPR',
  charge_off_rate: 'NTLNLSR',
};
/** The demo model's own fields: no demo rule. */
const DEMO_BASE = ['total_assets', 'total_deposits', 'total_loans', 'total_equity', 'net_income'];

const CODE = '[A-Z]{4}[A-Z0-9]{4}';
const TERM = `${CODE}(?:\\|${CODE})*`;
const FORMULA = new RegExp(`^${TERM}(?: [+-] ${TERM})*$`);

const isAmount = (field: FinancialField | undefined) =>
  field !== undefined && (field.unit === 'thousands_usd' || field.unit === 'count');
const names = (value: string | readonly string[]) => (typeof value === 'string' ? [value] : [...value]);
const collapse = (text: string) => text.replace(/\s+/g, ' ').trim();

/** The fields a field's ratio and demo rules name. */
function references(field: FinancialField): string[] {
  const refs: string[] = [];
  if (field.ratio) refs.push(...names(field.ratio.numerator), ...names(field.ratio.denominator));
  const demo = field.demo;
  if (demo && 'partOf' in demo) refs.push(demo.partOf);
  if (demo && 'shareOf' in demo) refs.push(demo.shareOf);
  if (demo && 'perBillion' in demo) refs.push(demo.of);
  return refs;
}

describe('field catalogue', () => {
  it('has at least 120 fields with unique snake_case names and unique FDIC codes', () => {
    expect(FINANCIAL_FIELDS.length).toBeGreaterThanOrEqual(120);
    expect(byName.size).toBe(FINANCIAL_FIELDS.length);
    expect(new Set(FINANCIAL_FIELDS.map((field) => field.fdic_field)).size).toBe(FINANCIAL_FIELDS.length);
    for (const field of FINANCIAL_FIELDS) expect(field.name).toMatch(/^[a-z][a-z0-9]*(?:_[a-z0-9]+)*$/);
  });

  it('keeps the 13 core fields with their FDIC codes', () => {
    for (const [name, code] of Object.entries(CORE)) expect(byName.get(name)?.fdic_field, name).toBe(code);
  });

  it('gives each kind its unit: amounts in thousands of USD, ratios in percent, counts as counts', () => {
    const unitOf = { stock: 'thousands_usd', flow_ytd: 'thousands_usd', flow_quarter: 'thousands_usd' };
    for (const field of FINANCIAL_FIELDS) {
      const expected =
        field.kind === 'ratio' ? 'percent' : field.kind === 'count' ? 'count' : unitOf[field.kind];
      expect(field.unit, field.name).toBe(expected);
      expect(field.title.length, field.name).toBeGreaterThan(0);
      expect(field.description.length, field.name).toBeGreaterThan(0);
    }
  });

  it('writes FFIEC formulas in the MdrmFormula grammar, income items only for year-to-date fields', () => {
    for (const field of FINANCIAL_FIELDS.filter((f) => f.ffiec !== undefined)) {
      expect(field.ffiec, field.name).toMatch(FORMULA);
      const codes = field.ffiec!.split(/ [+-] |\|/);
      // RIAD items are year to date; a quarter alone is not one report's item.
      expect(field.kind, field.name).not.toBe('flow_quarter');
      if (codes.some((code) => code.startsWith('RIAD'))) expect(field.kind, field.name).toBe('flow_ytd');
      if (field.kind === 'flow_ytd')
        expect(
          codes.every((code) => code.startsWith('RIAD')),
          field.name,
        ).toBe(true);
    }
    // The core formulas other code relies on.
    expect(byName.get('total_assets')!.ffiec).toBe('RCFD2170|RCON2170');
    expect(byName.get('total_deposits')!.ffiec).toBe('RCON2200 + RCFN2200');
    expect(byName.get('tier1_leverage')!.ffiec).toBe('RCFA7204|RCOA7204|RCFD7204|RCON7204');
  });

  it('names only existing amounts or counts in ratio and demo rules', () => {
    for (const field of FINANCIAL_FIELDS) {
      for (const ref of references(field)) {
        expect(byName.has(ref), `${field.name} → ${ref}`).toBe(true);
        expect(isAmount(byName.get(ref)), `${field.name} → ${ref}`).toBe(true);
        expect(ref, field.name).not.toBe(field.name);
      }
      if (field.ratio?.annualised) {
        // Annualising (× 12 / months) is defined for year-to-date numerators only.
        for (const ref of names(field.ratio.numerator))
          expect(byName.get(ref)!.kind, field.name).toBe('flow_ytd');
      }
    }
  });

  it('has a ratio rule for the core ratios the demo and FFIEC rows derive', () => {
    for (const name of [
      'roa',
      'roe',
      'efficiency_ratio',
      'npl_ratio',
      'equity_ratio',
      'loan_to_deposit',
      'charge_off_rate',
    ]) {
      expect(byName.get(name)!.ratio, name).toBeDefined();
    }
  });

  it('gives a demo rule to every amount and count but the demo base fields, and none to ratios', () => {
    for (const field of FINANCIAL_FIELDS) {
      if (field.unit === 'percent') expect(field.demo, field.name).toBeUndefined();
      else if (DEMO_BASE.includes(field.name)) expect(field.demo, field.name).toBeUndefined();
      else expect(field.demo, field.name).toBeDefined();
      const demo = field.demo;
      if (!demo) continue;
      const [low, high] = 'weight' in demo ? demo.weight : 'range' in demo ? demo.range : demo.perBillion;
      expect(low, field.name).toBeLessThanOrEqual(high);
      if ('perBillion' in demo) expect(field.unit, field.name).toBe('count');
    }
  });

  it('lets the parts of each total sum to it, each part of the same kind as its total', () => {
    const parts = new Map<string, FinancialField[]>();
    for (const field of FINANCIAL_FIELDS) {
      if (field.demo && 'partOf' in field.demo) {
        parts.set(field.demo.partOf, [...(parts.get(field.demo.partOf) ?? []), field]);
      }
    }
    for (const [total, members] of parts) {
      expect(members.length, total).toBeGreaterThanOrEqual(2);
      const weights = members.map((m) => (m.demo as { weight: readonly [number, number] }).weight);
      expect(
        weights.reduce((sum, w) => sum + w[0], 0),
        total,
      ).toBeLessThanOrEqual(1);
      expect(
        weights.reduce((sum, w) => sum + w[1], 0),
        total,
      ).toBeGreaterThanOrEqual(1);
      for (const member of members) expect(member.kind, member.name).toBe(byName.get(total)!.kind);
    }
  });

  it('has no cycle among demo references (each derives from fields generated before it)', () => {
    const state = new Map<string, 'visiting' | 'done'>();
    const visit = (name: string, path: string[]) => {
      if (state.get(name) === 'done') return;
      expect(state.get(name), [...path, name].join(' → ')).not.toBe('visiting');
      state.set(name, 'visiting');
      const demo = byName.get(name)!.demo;
      if (demo)
        visit('partOf' in demo ? demo.partOf : 'shareOf' in demo ? demo.shareOf : demo.of, [...path, name]);
      state.set(name, 'done');
    };
    for (const field of FINANCIAL_FIELDS) visit(field.name, []);
  });
});

const YAML_FILE = '../reference/fdic-financials-definitions.yaml';
const SDI_FILE = 'fdic_financials/fdic_sdi_definitions.csv';
const shared = sharedAvailable([YAML_FILE, SDI_FILE], 'field catalogue checks against FDIC definitions');

/** code → description (null when FDIC gives none) of properties.data.properties in FDIC's YAML. */
function readFdicDefinitions(): Map<string, string | null> {
  const definitions = new Map<string, string | null>();
  let code: string | null = null;
  let text: string[] | null = null;
  const finish = () => {
    if (code !== null && text !== null) {
      const joined = collapse(text.join(' ').replace(/^(?:[>|][-+]?)(?=\s|$)/, ''));
      definitions.set(code, joined === '' || joined === 'None' || joined === 'TBD' ? null : joined);
    }
    text = null;
  };
  for (const line of readFileSync(realdata(YAML_FILE), 'utf8').split(/\r?\n/)) {
    const indent = line.length - line.trimStart().length;
    if (line.trim() === '') continue;
    if (text !== null && indent > 8) {
      text.push(line.trim());
      continue;
    }
    finish();
    const key = /^ {6}([A-Za-z0-9_]+):\s*$/.exec(line);
    if (key) {
      code = key[1]!;
      definitions.set(code, null);
      continue;
    }
    const description = /^ {8}description:(.*)$/.exec(line);
    if (description && code !== null) text = [description[1]!.trim()];
  }
  finish();
  return definitions;
}

/** VARIABLE (upper case) → definition, from FDIC's SDI definitions file (Windows-1252). */
function readSdiDefinitions(): Map<string, string> {
  const text = new TextDecoder('windows-1252').decode(readFileSync(realdata(SDI_FILE)));
  const rows = parse(text, { from_line: 2, columns: true }) as Record<string, string>[];
  return new Map(
    rows.map((row) => [row.Variable!.toUpperCase(), collapse(row.Definition!.replace(/<br\s*\/?>/gi, ' '))]),
  );
}

(shared ? describe : describe.skip)('field catalogue against FDIC definitions', () => {
  const fdic = shared ? readFdicDefinitions() : new Map<string, string | null>();
  const sdi = shared ? readSdiDefinitions() : new Map<string, string>();

  it('reads FDIC’s field file whole', () => {
    expect(fdic.size).toBeGreaterThan(2000);
    expect(fdic.get('ASSET')).toMatch(/^The sum of all assets owned by the institution/);
    expect(fdic.get('LNLSGR')).toBeNull();
    expect(sdi.get('CHBAL')).toMatch(/^Total cash and balances due/);
  });

  it('uses only FDIC financials codes', () => {
    for (const field of FINANCIAL_FIELDS) expect(fdic.has(field.fdic_field), field.fdic_field).toBe(true);
  });

  it('gives FDIC’s own definition, or a sentence from FDIC’s title where FDIC gives none', () => {
    for (const field of FINANCIAL_FIELDS) {
      const description = collapse(field.description);
      const fromYaml = fdic.get(field.fdic_field);
      const fromSdi = sdi.get(field.fdic_field);
      if (fromYaml) expect(description, field.name).toBe(fromYaml);
      else if (fromSdi) expect(description, field.name).toBe(fromSdi);
      else {
        expect(description, field.name).toMatch(/^[A-Z0-9].*\.$/);
        expect(description.length, field.name).toBeGreaterThan(field.title.length);
      }
    }
  });
});
