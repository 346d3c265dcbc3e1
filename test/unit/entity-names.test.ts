/** The name normalisation and matching rules of docs/identity.md, case by case. */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { matchNames, nameSimilarity, normaliseEntityName } from '../../src/ingest/derived/identity/names.js';
import { DEFAULT_OVERRIDES_FILE, readOverrides } from '../../src/ingest/derived/identity/overrides.js';

describe('normaliseEntityName', () => {
  it.each([
    ['JPMorgan Chase & Co.', 'JPMORGAN CHASE & CO', 'JPMORGAN CHASE'],
    ['Zions Bancorporation, N.A.', 'ZIONS BANCORPORATION, NATIONAL ASSOCIATION', 'ZIONS BANCORPORATION'],
    ['Example Trust Bank, National Association', 'EXAMPLE TRUST BANK N A', 'EXAMPLE TRUST BANK'],
    ['KEYCORP /NEW/', 'KeyCorp', 'KEYCORP'],
    ['CITIZENS FINANCIAL GROUP INC/RI', 'Citizens Financial Group, Inc.', 'CITIZENS FINANCIAL GROUP'],
    ['U.S. BANCORP', 'US BANCORP \\DE\\', 'US BANCORP'],
    ['F.N.B. CORPORATION', 'FNB CORP/PA/', 'FNB'],
    ['FIRST FINL BANKSHARES INC', 'First Financial Bankshares, Inc.', 'FIRST FINANCIAL BANKSHARES'],
    [
      'The PNC Financial Services Group, Inc.',
      'PNC FINANCIAL SERVICES GROUP, INC.',
      'PNC FINANCIAL SERVICES GROUP',
    ],
  ])('%s and %s → %s', (a, b, expected) => {
    expect(normaliseEntityName(a)).toBe(expected);
    expect(normaliseEntityName(b)).toBe(expected);
  });

  it('ignores spaces in the similarity, so SOUTH STATE meets SOUTHSTATE', () => {
    expect(nameSimilarity('SOUTH STATE', 'SOUTHSTATE')).toBe(1);
    expect(nameSimilarity('PLANTERS AND MERCHANTS BANCORP', 'PLANTERS AND MECHANICS BANCORP')).toBeLessThan(
      1,
    );
  });
});

describe('matchNames', () => {
  const right = [
    { id: 'cik:1', name: 'PLANTERS & MECHANICS BANCORP /DE/' },
    { id: 'cik:2', name: 'First Bancorp' },
    { id: 'cik:3', name: 'Acme Holdings Inc' },
  ];

  it('links one-to-one: a near name does not take an exact one’s registrant', () => {
    const matches = matchNames(
      [
        { id: 'rssd:1', name: 'PLANTERS & MECHANICS BANCORP' },
        { id: 'rssd:2', name: 'PLANTERS & MERCHANTS BANCORP' },
      ],
      right,
    );
    expect(matches.filter((m) => m.linked).map((m) => [m.left.id, m.right.id])).toEqual([
      ['rssd:1', 'cik:1'],
    ]);
  });

  it('a name several entities share is a candidate only, unless one is ten times the size of the others', () => {
    const shared = [
      { id: 'rssd:3', name: 'FIRST BANCORP', size: 100 },
      { id: 'rssd:4', name: 'First Bancorp, Inc.', size: 50 },
    ];
    expect(matchNames(shared, right).filter((m) => m.linked)).toEqual([]);
    const dominant = [
      shared[0] as (typeof shared)[number],
      { ...(shared[1] as (typeof shared)[number]), size: 9 },
    ];
    expect(
      matchNames(dominant, right)
        .filter((m) => m.linked)
        .map((m) => m.left.id),
    ).toEqual(['rssd:3']);
  });

  it('keeps pairs between 0.8 and 0.9 as candidates', () => {
    const [match] = matchNames([{ id: 'rssd:5', name: 'Acme Holdin Inc' }], right);
    expect(match?.linked).toBe(false);
    expect(match?.similarity).toBeGreaterThanOrEqual(0.8);
    expect(match?.similarity).toBeLessThan(0.9);
  });
});

describe('overrides', () => {
  it('reads the checked-in file', () => {
    const overrides = readOverrides(DEFAULT_OVERRIDES_FILE);
    expect(overrides.vetoes.length).toBeGreaterThan(0);
  });

  it('refuses a malformed file, naming the bad entry', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'overrides-')), 'o.json');
    writeFileSync(
      file,
      JSON.stringify({ links: [{ from: 'bank 1', relation: 'registered_as', to: 'cik:1' }] }),
    );
    expect(() => readOverrides(file)).toThrow(/links\[0\]\.from: not an entity id/);
  });
});
