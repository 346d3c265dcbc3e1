/** Pure checks (no server needed): which errors mean "the database is away", and URL redaction. */
import { describe, expect, it } from 'vitest';
import { redactUrl } from '../../src/db/connect.js';
import { isDatabaseUnavailable } from '../../src/db/unavailable.js';

const withCode = (code: string, message = 'x') => Object.assign(new Error(message), { code });

describe('isDatabaseUnavailable', () => {
  it.each([
    ['admin shutdown / pg_terminate_backend', withCode('57P01')],
    ['statement timeout', withCode('57014')],
    ['database not accepting connections', withCode('55000')],
    ['too many connections', withCode('53300')],
    ['connection exception class 08', withCode('08006')],
    ['refused', withCode('ECONNREFUSED')],
    ['reset', withCode('ECONNRESET')],
    ['node-postgres cut connection', new Error('Connection terminated unexpectedly')],
    ['pool connect timeout', new Error('timeout exceeded when trying to connect')],
    ['AggregateError of refusals', Object.assign(new AggregateError([withCode('ECONNREFUSED')], 'x'), {})],
    ['wrapped cause', new Error('query failed', { cause: withCode('57P01') })],
  ])('is true for %s', (_, error) => {
    expect(isDatabaseUnavailable(error)).toBe(true);
  });

  it.each([
    ['syntax error', withCode('42601')],
    ['undefined column', withCode('42703')],
    ['permission denied', withCode('42501')],
    ['unique violation', withCode('23505')],
    ['plain bug', new TypeError('cannot read properties of undefined')],
    ['not an error', 'ECONNREFUSED'],
  ])('is false for %s', (_, error) => {
    expect(isDatabaseUnavailable(error)).toBe(false);
  });
});

describe('redactUrl', () => {
  it('hides a PostgreSQL password and leaves everything else', () => {
    expect(redactUrl('postgres://api:s%40cret@db:5432/regdata?sslmode=require')).toBe(
      'postgres://api:***@db:5432/regdata?sslmode=require',
    );
    expect(redactUrl('postgres://postgres@127.0.0.1:5432/test')).toBe(
      'postgres://postgres@127.0.0.1:5432/test',
    );
    expect(redactUrl('./data/regdata.sqlite')).toBe('./data/regdata.sqlite');
  });
});
