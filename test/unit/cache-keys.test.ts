import { describe, expect, it } from 'vitest';
import { etagFor, ifNoneMatchHits, negotiateCoding } from '../../src/http/cache-keys.js';

describe('content-coding negotiation', () => {
  it.each([
    [undefined, 'identity'],
    ['', 'identity'],
    ['gzip', 'gzip'],
    ['gzip, deflate, br', 'br'],
    ['br;q=0, gzip', 'gzip'],
    ['br;q=0, gzip;q=0', 'identity'],
    ['*', 'gzip'],
    ['deflate', 'identity'],
    ['GZIP', 'gzip'],
  ])('%j → %s', (header, coding) => {
    expect(negotiateCoding(header)).toBe(coding);
  });
});

describe('ETags and If-None-Match', () => {
  const identity = etagFor('["/api/v1/failures",[],[]]', 7, 'identity');

  it('is strong, versioned, and differs by request, dataset version and coding', () => {
    expect(identity).toMatch(/^"7-[A-Za-z0-9_-]{20}"$/);
    expect(etagFor('["/api/v1/failures",[],[]]', 8, 'identity')).not.toBe(identity);
    expect(etagFor('["/api/v1/banks",[],[]]', 7, 'identity')).not.toBe(identity);
    expect(etagFor('["/api/v1/failures",[],[]]', 7, 'gzip')).toBe(identity.replace(/"$/, '-gzip"'));
  });

  it('matches lists, weak forms, other codings of the same representation and *', () => {
    expect(ifNoneMatchHits(identity, identity)).toBe(true);
    expect(ifNoneMatchHits(`"x", ${identity}`, identity)).toBe(true);
    expect(ifNoneMatchHits(`W/${identity}`, identity)).toBe(true);
    expect(ifNoneMatchHits(identity.replace(/"$/, '-br"'), identity)).toBe(true);
    expect(ifNoneMatchHits('*', identity)).toBe(true);
    expect(ifNoneMatchHits('"6-whatever"', identity)).toBe(false);
    expect(ifNoneMatchHits(undefined, identity)).toBe(false);
  });
});
