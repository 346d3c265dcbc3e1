/** The holdings contract in /openapi.json documents every parameter and field, with units. */
import { describe, expect, it } from 'vitest';
import { seedHoldings } from '../fixtures/holdings.js';
import { getJson, useTestApp } from '../helpers/app.js';
import { testBackends } from '../helpers/backends.js';

type Schema = {
  description?: string;
  properties?: Record<string, Schema>;
  items?: Schema;
  anyOf?: Schema[];
  additionalProperties?: Schema;
};

const THOUSANDS = [
  'value',
  'total_value',
  'equity_value',
  'total_aum',
  'value_change',
  'value1',
  'value2',
  'min_value',
];
const USD = ['aum', 'discretionary_aum'];
const CONTAINERS = [
  'data',
  'holdings',
  'observations',
  'new_entries',
  'biggest_inflows',
  'top_exits',
  'holders',
];

/** Every property, descending into arrays, nested objects and unions (list items of /api/holdings). */
function properties(schema: Schema, path = ''): [string, Schema][] {
  const found: [string, Schema][] = [];
  const variants = schema.anyOf ?? [schema];
  for (const variant of variants) {
    for (const [name, child] of Object.entries(variant.properties ?? {})) {
      const childPath = path ? `${path}.${name}` : name;
      found.push([childPath, child]);
      const inner = child.items ?? child;
      found.push(...properties(inner, childPath));
    }
  }
  return found;
}

const PATHS = [
  '/api/stats',
  '/api/advisers',
  '/api/advisers/{crd}',
  '/api/holdings',
  '/api/holdings/{cik}',
  '/api/holdings/{cik}/timeline',
  '/api/crowded',
  '/api/smart-money',
  '/api/overlap',
  '/api/compare',
  '/api/macro',
];

describe.each(testBackends())('holdings OpenAPI contract on $name', (backend) => {
  const ctx = useTestApp(backend, seedHoldings);

  it.each(PATHS)('%s documents every parameter and response field, with units', async (path) => {
    const { body } = await getJson(ctx.app, '/openapi.json');
    const operation = body.paths[path]?.get;
    expect(operation, path).toBeTruthy();
    for (const parameter of operation.parameters ?? []) {
      expect(parameter.description ?? parameter.schema?.description, parameter.name).toBeTruthy();
    }
    const schema = operation.responses['200'].content['application/json'].schema as Schema;
    const root = schema.items ?? schema;
    const fields = properties(root);
    expect(fields.length).toBeGreaterThan(3);
    const undocumented = fields.filter(
      ([name, s]) => !s.description && !CONTAINERS.includes(name.split('.').at(-1) ?? ''),
    );
    expect(undocumented.map(([name]) => name)).toEqual([]);
    for (const [name, field] of fields) {
      const leaf = name.split('.').at(-1) ?? '';
      // Macro observations are in each series' own units, not holdings money.
      if (THOUSANDS.includes(leaf) && !name.startsWith('observations'))
        expect(field.description, name).toContain('thousands of USD');
      if (USD.includes(leaf)) expect(field.description, name).toContain('USD');
    }
  });
});
