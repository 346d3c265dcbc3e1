/**
 * UnknownSecurities keeps, for each CUSIP the master lacks, the greatest issuer and the greatest
 * non-null class text filed for it (what SQL's max() over the rows would pick), however the rows
 * come (one by one, or another collection's names noted together), and forgets them on clear().
 * Checked against a plain computation over the same rows.
 */
import { describe, expect, it } from 'vitest';
import { UnknownSecurities } from '../../src/ingest/sources/sec/holdings/derive/securities.js';

type Filed = [cusip: string, issuer: string, title: string | null];

const CUSIPS = ['037833100', '594918104', '02079K305', 'G0176J109', '12345*AB1', 'lowercase'];
const ISSUERS = ['APPLE INC', 'Apple Inc', 'APPLE INC.', 'MICROSOFT CORP', 'ALPHABET INC'];
const TITLES = ['COM', 'CL A', null, 'COM NEW', 'SHS'];

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
});
