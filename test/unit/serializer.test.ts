import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';
import { pageWithTotal, totalFromPage } from '../../src/http/paging.js';
import { forSerialization } from '../../src/http/serializer.js';

describe('response schemas as the serializer sees them', () => {
  const Row = Type.Object({
    name: Type.String(),
    city: Type.Union([Type.String(), Type.Null()], { description: 'City' }),
    assets: Type.Union([Type.Null(), Type.Number()]),
    count: Type.Union([Type.Integer(), Type.Null()]),
    shape: Type.Union([Type.Object({ a: Type.String() }), Type.Null()]),
    pattern: Type.Union([Type.String({ pattern: '^a' }), Type.Null()]),
    either: Type.Union([Type.String(), Type.Number()]),
  });

  it('turns nullable scalars into type arrays and leaves every other union alone', () => {
    const properties = (
      forSerialization(Type.Array(Row)) as { items: { properties: Record<string, unknown> } }
    ).items.properties;
    expect(properties.city).toEqual({ type: ['string', 'null'], description: 'City' });
    expect(properties.assets).toEqual({ type: ['number', 'null'] });
    expect(properties.count).toEqual({ type: ['integer', 'null'] });
    expect(properties.shape).toHaveProperty('anyOf');
    expect(properties.pattern).toHaveProperty('anyOf');
    expect(properties.either).toHaveProperty('anyOf');
    expect(properties.name).toEqual({ type: 'string' });
  });

  it('copies: the schema the OpenAPI document is built from keeps its anyOf', () => {
    forSerialization(Row);
    expect(Row.properties.city).toHaveProperty('anyOf');
    expect(forSerialization(Row)).toBe(forSerialization(Row));
  });
});

describe('totals implied by a page', () => {
  it.each([
    [[3, 0, 50], 3],
    [[0, 0, 50], 0],
    [[7, 100, 50], 107],
    [[50, 0, 50], undefined],
    [[0, 100, 50], undefined],
  ] as const)('rows, offset, limit %j → %s', ([rows, offset, limit], total) => {
    expect(totalFromPage(rows, { offset, limit })).toBe(total);
  });

  it('counts only when the page does not tell', async () => {
    let counted = 0;
    const count = async () => {
      counted++;
      return 999;
    };
    const short = await pageWithTotal({ limit: 5, offset: 10 }, async () => [1, 2], count);
    expect(short).toEqual({ data: [1, 2], total: 12 });
    expect(counted).toBe(0);
    const full = await pageWithTotal({ limit: 2, offset: 0 }, async () => [1, 2], count);
    expect(full).toEqual({ data: [1, 2], total: 999 });
    expect(counted).toBe(1);
  });
});
