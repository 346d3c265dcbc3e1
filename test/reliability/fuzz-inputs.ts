/**
 * fast-check generators of hostile requests, derived from a route's own schemas so that every new
 * endpoint in the route catalog is fuzzed without touching this file.
 */
import fc from 'fast-check';
import { USPS_CODES } from '../../src/usps-codes.js';

export interface PropertySchema {
  type?: string;
  enum?: string[];
  anyOf?: PropertySchema[];
  'x-kind'?: string;
}

export interface ObjectSchema {
  properties?: Record<string, PropertySchema>;
}

const HOSTILE = [
  "' OR 1=1 --",
  "'; DROP TABLE failures; --",
  '1; SELECT pg_sleep(10)',
  '" UNION SELECT * FROM sqlite_master --',
  '../../../../etc/passwd',
  '..%2F..%2F..%2Fetc%2Fpasswd',
  '%00',
  '\u0000',
  '<script>alert(1)</script>',
  '{{7*7}}',
  '#{7*7}',
  '__proto__',
  'constructor',
  'NaN',
  'Infinity',
  '-Infinity',
  '1e309',
  '-1e309',
  '0x1F',
  '0b101',
  '1_000',
  '  42  ',
  '+5',
  '-0',
  '9007199254740993',
  '99999999999999999999999999999999',
  '-99999999999999999999999999999999',
  '-1',
  '0',
  '2024-02-30',
  '2024-13-01',
  '0000-00-00',
  '9999-12-31',
  '2024-Q5',
  '1999-Q0',
  'ÅÉÎ',
  '𝔘𝔫𝔦𝔠𝔬𝔡𝔢',
  '👩‍👩‍👧‍👦',
  '\u202Eevil',
  'true',
  'null',
  'undefined',
  '[]',
  '{}',
  ',,,',
  'a,b,c,d,e,f,g,h,i,j,k,l,m,n,o,p,q,r,s,t,u,v,w,x,y,z',
];

const RAW_ESCAPES = ['%', '%zz', '%E0%A4%A', '%ED%A0%80', '%C0%AF', '+', '%2B', '%26', '%3D', '%23'];

/** A value the schema would accept, in a random letter case, so valid paths get exercised too. */
function plausible(schema: PropertySchema | undefined): fc.Arbitrary<string> {
  const options: fc.Arbitrary<string>[] = [fc.integer({ min: -5, max: 5000 }).map(String)];
  const enums = schema?.enum ?? schema?.anyOf?.flatMap((s) => s.enum ?? []);
  if (enums && enums.length > 0) options.push(fc.constantFrom(...enums).map((v) => v.toUpperCase()));
  if (schema?.['x-kind'] === 'state')
    options.push(fc.constantFrom(...USPS_CODES).map((c) => c.toLowerCase()));
  if (schema?.['x-kind'] === 'date') {
    options.push(
      fc
        .date({ min: new Date('1930-01-01'), max: new Date('2030-12-31'), noInvalidDate: true })
        .map((d) => d.toISOString().slice(0, 10)),
    );
  }
  options.push(
    fc.integer({ min: 1990, max: 2030 }).chain((y) => fc.constantFrom(`${y}`, `${y}-Q2`, `${y}-06-30`)),
  );
  return fc.oneof(...options);
}

/** Encodes like a browser would, except where the value is raw on purpose. */
function encoded(value: string): string {
  try {
    return encodeURIComponent(value);
  } catch {
    return '%ED%A0%80'; // a lone surrogate: send invalid UTF-8 instead
  }
}

export function valueArbitrary(schema: PropertySchema | undefined): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 3, arbitrary: plausible(schema).map(encoded) },
    { weight: 3, arbitrary: fc.constantFrom(...HOSTILE).map(encoded) },
    { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }).map(encoded) },
    { weight: 1, arbitrary: fc.double().map((n) => encoded(String(n))) },
    { weight: 1, arbitrary: fc.bigInt().map((n) => encoded(String(n))) },
    { weight: 1, arbitrary: fc.constantFrom(...RAW_ESCAPES) },
    { weight: 1, arbitrary: fc.constantFrom('', ' ', '%20%20') },
  );
}

/** 8 KB of parameter, sometimes plain and sometimes multi-byte. */
export const hugeValue = fc.constantFrom('x'.repeat(8192), encoded('é'.repeat(1400)), '9'.repeat(8000));

export interface FuzzRequest {
  readonly method: 'GET' | 'HEAD';
  readonly url: string;
}

/** One request to a route pattern: hostile path parameters, a random subset of query parameters. */
export function requestArbitrary(
  pattern: string,
  query: ObjectSchema | undefined,
  params: ObjectSchema | undefined,
): fc.Arbitrary<FuzzRequest> {
  const names = Object.keys(query?.properties ?? {});
  const entry = fc.oneof(
    { weight: 6, arbitrary: names.length ? fc.constantFrom(...names) : fc.constant('q') },
    { weight: 1, arbitrary: fc.constantFrom('__proto__', 'constructor', 'a[b]', 'limit[]', 'zzz', '') },
  );
  const pair = fc.tuple(
    entry,
    fc.oneof({ weight: 20, arbitrary: valueArbitrary(undefined) }, { weight: 1, arbitrary: hugeValue }),
  );
  const typedPair = entry.chain((name) =>
    fc.tuple(fc.constant(name), valueArbitrary(query?.properties?.[name])),
  );
  const segments = pattern.split('/').map((segment) => {
    if (!segment.startsWith(':')) return fc.constant(segment);
    const [name, suffix] = segment.slice(1).split('.');
    return fc
      .oneof(
        { weight: 10, arbitrary: valueArbitrary(params?.properties?.[name as string]) },
        { weight: 1, arbitrary: hugeValue },
      )
      .map((value) => (suffix ? `${value}.${suffix}` : value));
  });
  return fc
    .record({
      method: fc.constantFrom<'GET' | 'HEAD'>('GET', 'GET', 'GET', 'HEAD'),
      path: fc.tuple(...segments).map((parts) => parts.join('/')),
      pairs: fc.array(fc.oneof(typedPair, pair), { maxLength: 6 }),
      repeat: fc.boolean(),
    })
    .map(({ method, path, pairs, repeat }) => {
      const all = repeat && pairs.length > 0 ? [...pairs, pairs[0] as [string, string]] : pairs;
      const queryString = all.map(([name, value]) => `${encoded(name)}=${value}`).join('&');
      return { method, url: queryString ? `${path}?${queryString}` : path };
    });
}
