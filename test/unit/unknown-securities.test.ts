/**
 * UnknownSecurities keeps, for each CUSIP the master lacks, the greatest issuer and the greatest
 * non-null class text filed for it (what SQL's max() over the rows would pick), however the rows
 * come (one by one, or another collection's names noted together), and forgets them on clear().
 * Checked against a plain computation over the same rows.
 */
import { describe, expect, it } from 'vitest';
import { CusipNumbers } from '../../src/ingest/sources/sec/holdings/derive/cusip-numbers.js';
import {
  type SecurityMaster,
  UnknownSecurities,
} from '../../src/ingest/sources/sec/holdings/derive/securities.js';
import { TextColumn } from '../../src/ingest/sources/sec/text-column.js';

type Filed = [cusip: string, issuer: string, title: string | null];

const CUSIPS = ['037833100', '594918104', '02079K305', 'G0176J109', '12345*AB1', 'lowercase'];
const ISSUERS = [
  'APPLE INC',
  'Apple Inc',
  'APPLE INC.',
  'MICROSOFT CORP',
  'ALPHABET INC',
  'Société Générale',
  'A',
  'ALPHA INC',
  'APPLE IND',
];
const TITLES = ['COM', 'CL A', null, 'COM NEW', 'SHS', 'ÉCU', 'COMMON STOCK', 'CXM', 'CL B', 'COMMON STOCX'];

function rows(seed: number, count: number): Filed[] {
  let state = seed;
  const pick = <T>(list: readonly T[]) => {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    return list[state % list.length] as T;
  };
  return Array.from({ length: count }, () => [pick(CUSIPS), pick(ISSUERS), pick(TITLES)] as Filed);
}

/** The expected names: max issuer, max non-null title (null when every title was null). */
function expected(filed: readonly Filed[], known: ReadonlySet<string>) {
  const names = new Map<string, { issuer: string; title_of_class: string | null }>();
  for (const [cusip, issuer, title] of filed) {
    if (known.has(cusip)) continue;
    const name = names.get(cusip);
    if (!name) names.set(cusip, { issuer, title_of_class: title });
    else {
      if (issuer > name.issuer) name.issuer = issuer;
      if (title !== null && (name.title_of_class === null || title > name.title_of_class))
        name.title_of_class = title;
    }
  }
  return names;
}

describe('UnknownSecurities', () => {
  it('keeps the greatest issuer and class filed for each CUSIP the master lacks', () => {
    const master = new Map([['594918104', { issuer: 'MICROSOFT CORP', title_of_class: 'COM' }]]);
    const filed = rows(3, 500);
    const unknown = new UnknownSecurities(master);
    for (const [cusip, issuer, title] of filed) unknown.noteName(cusip, issuer, title);
    expect(new Map(unknown.names())).toEqual(expected(filed, new Set(master.keys())));
  });

  it('stops noting a CUSIP once the master has it (as after addMissingSecurities)', () => {
    const master = new Map<string, { issuer: string; title_of_class: string | null }>();
    const unknown = new UnknownSecurities(master);
    unknown.noteName('037833100', 'APPLE INC', 'COM');
    master.set('594918104', { issuer: 'MICROSOFT CORP', title_of_class: 'COM' });
    unknown.noteName('594918104', 'MICROSOFT CORP', 'COM');
    unknown.noteName('02079K305', 'ALPHABET INC', 'CAP STK CL C');
    expect([...unknown.names()].map(([cusip]) => cusip)).toEqual(['037833100', '02079K305']);
  });

  it('notes another collection as if its rows came one by one, and forgets all on clear()', () => {
    const first = rows(5, 300);
    const second = rows(11, 300);
    const a = new UnknownSecurities(new Map());
    const b = new UnknownSecurities(new Map());
    for (const [cusip, issuer, title] of first) a.noteName(cusip, issuer, title);
    for (const [cusip, issuer, title] of second) b.noteName(cusip, issuer, title);
    a.noteAll(b);
    expect(new Map(a.names())).toEqual(expected([...first, ...second], new Set()));
    a.clear();
    expect([...a.names()]).toEqual([]);
    a.noteName('037833100', 'APPLE INC', null);
    expect([...a.names()]).toEqual([['037833100', { issuer: 'APPLE INC', title_of_class: null }]]);
  });

  it('notes names given as UTF-8 bytes, by a shared numbering, as it notes texts', () => {
    // Names that grow late, differ only after their first byte, and get shorter, then longer.
    // biome-ignore format: one CUSIP's rows a line
    const crafted: Filed[] = [
      ['037833100', 'APPLE INC', 'COM'], ['594918104', 'B', 'CL A'], ['037833100', 'APPLE IND', 'CXM'],
      ['594918104', 'ABCDEFGHIJ', 'CL A'], ['037833100', 'APPLE INC', 'COM'], ['594918104', 'C', null],
      ['037833100', 'APPLE INC', 'CXM'], ['594918104', 'CZZZZZZZZZZZZZ', 'CL B'], ['594918104', 'C', 'CL A'],
    ];
    for (const filed of [crafted, rows(7, 3000), rows(13, 3000), [...crafted, ...rows(29, 3000)]]) {
      const unknown = noteAsBytes(filed, new Map(), () => false);
      expect(new Map(unknown.names())).toEqual(expected(filed, new Set()));
    }
  });

  it('notes from bytes past its first pool and places, beside a master and names noted as texts', () => {
    // 3,000 CUSIPs with long names in several spellings: the byte pool and the places grow.
    const cusips = Array.from({ length: 3000 }, (_, i) => String(100_000_000 + i * 7919).slice(0, 9));
    let state = 17;
    const pick = (n: number) => {
      state = (Math.imul(state, 1103515245) + 12345) >>> 0;
      return state % n;
    };
    const filed: Filed[] = Array.from({ length: 40_000 }, () => {
      const cusip = cusips[pick(cusips.length)] as string;
      return [
        cusip,
        `ISSUER ${cusip} HOLDINGS INCORPORATED ${'ABC'[pick(3)]}`,
        pick(4) === 0 ? null : `CLASS ${pick(3)}`,
      ];
    });
    const master = new Map(cusips.slice(0, 50).map((c) => [c, { issuer: 'KNOWN', title_of_class: null }]));
    // Every fifth row noted as texts, the others as bytes.
    const unknown = noteAsBytes(filed, master, (i) => i % 5 === 0);
    expect(
      filed.reduce((n, [, issuer, title]) => n + issuer.length + (title?.length ?? 0), 0),
    ).toBeGreaterThan(1 << 20);
    expect(new Map(unknown.names())).toEqual(expected(filed, new Set(master.keys())));
  });
});

/**
 * Notes `filed` by a shared numbering, its names as the UTF-8 bytes TextColumn hands over (issuer,
 * class, back to back), or as texts for the rows `asText` picks.
 */
function noteAsBytes(filed: readonly Filed[], master: SecurityMaster, asText: (row: number) => boolean) {
  const numbers = new CusipNumbers();
  const unknown = new UnknownSecurities(master, numbers);
  const texts = new TextColumn();
  for (const [, issuer, title] of filed) {
    texts.add(issuer);
    texts.add(title);
  }
  const { texts: bytes, lengths } = texts.take();
  let at = 0;
  filed.forEach(([cusip, issuer, title], i) => {
    const issuerLength = lengths[2 * i] as number;
    const titleLength = lengths[2 * i + 1] as number;
    if (asText(i)) unknown.noteNumber(numbers.numberOf(cusip), issuer, title);
    else unknown.noteNumberBytes(numbers.numberOf(cusip), bytes, at, issuerLength, titleLength);
    at += issuerLength + Math.max(titleLength, 0);
  });
  return unknown;
}
