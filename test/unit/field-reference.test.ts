/** The field reference page is the catalogue: one row per field, in catalogue order, by family. */
import { expect, it } from 'vitest';
import { FINANCIAL_FIELDS } from '../../src/banking/fields/catalogue.js';
import { fieldReference } from '../../src/banking/fields/reference.js';

it('lists every field once, with its FDIC code, unit and kind, under its family', () => {
  const page = fieldReference();
  const rows = page.split('\n').filter((line) => line.startsWith('| `'));
  expect(rows).toHaveLength(FINANCIAL_FIELDS.length);
  const byName = new Map(rows.map((row) => [row.split('`')[1], row]));
  for (const field of FINANCIAL_FIELDS) {
    expect(byName.get(field.name), field.name).toContain(
      `| \`${field.fdic_field}\` | ${field.unit} | ${field.kind} |`,
    );
    const family = page.indexOf(`## ${field.family.replaceAll('_', ' ')}\n`);
    expect(family, field.family).toBeGreaterThan(-1);
    expect(page.indexOf(`| \`${field.name}\` |`)).toBeGreaterThan(family);
  }
});
