import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { etagFor, ifNoneMatchHits, negotiateCoding } from '../../src/http/cache-keys.js';
import { version } from '../../src/version.js';

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

  it('is the SHA-1 of the code version and the request key (tags a client holds stay valid)', () => {
    const sha1 = createHash('sha1').update(`${version}\n["/api/v1/failures",[],[]]`).digest('base64url');
    expect(identity).toBe(`"7-${sha1.slice(0, 20)}"`);
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
