/** The banking contract in /openapi.json documents every parameter and every field, with units. */
import { describe, expect, it } from 'vitest';
import { seedBanking } from '../fixtures/banking.js';
import { getJson, useTestApp } from '../helpers/app.js';
import { testBackends } from '../helpers/backends.js';

type Schema = { description?: string; properties?: Record<string, Schema>; items?: Schema; anyOf?: Schema[] };

const MONEY = ['asset_size', 'total_assets', 'total_deposits', 'total_loans'];
const RATIOS = [
  'roa',
  'roe',
  'efficiency_ratio',
  'npl_ratio',
  'tier1_leverage',
  'equity_ratio',
  'loan_to_deposit',
  'charge_off_rate',
];

/** Every property of an object schema, with its path, descending into arrays and nested objects. */
function properties(schema: Schema, path = ''): [string, Schema][] {
  const found: [string, Schema][] = [];
  for (const [name, child] of Object.entries(schema.properties ?? {})) {
    const childPath = path ? `${path}.${name}` : name;
    found.push([childPath, child]);
    const inner = child.items ?? child;
    if (inner.properties) found.push(...properties(inner, childPath));
  }
  return found;
}

describe.each(testBackends())('banking OpenAPI contract on $name', (backend) => {
  const ctx = useTestApp(backend, seedBanking);

  it.each(['/api/v1/banks', '/api/v1/financials', '/api/v1/macro'])(
    '%s documents every parameter and every response field',
    async (path) => {
      const { body } = await getJson(ctx.app, '/openapi.json');
      const operation = body.paths[path].get;
      expect(operation.parameters.length).toBeGreaterThan(2);
      for (const parameter of operation.parameters) {
        expect(parameter.description ?? parameter.schema?.description, parameter.name).toBeTruthy();
      }
      const schema = operation.responses['200'].content['application/json'].schema as Schema;
      const fields = properties(schema);
      expect(fields.length).toBeGreaterThan(3);
      const undocumented = fields.filter(
        ([name, s]) => !s.description && !['data', 'series', 'meta'].includes(name.split('.').at(-1)!),
      );
      expect(undocumented.map(([name]) => name)).toEqual([]);
      for (const [name, field] of fields) {
        const leaf = name.split('.').at(-1)!;
        if (MONEY.includes(leaf)) expect(field.description, name).toContain('thousands of USD');
        if (RATIOS.includes(leaf)) expect(field.description, name).toContain('percent');
      }
    },
  );
});
