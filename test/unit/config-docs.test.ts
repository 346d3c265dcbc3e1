/** README's configuration table lists every setting of SETTINGS with its default (STYLE habit 10). */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SETTINGS } from '../../src/config.js';
import { extractConfigTable, renderConfigTable, withConfigTable } from '../../src/config-docs.js';

const readme = readFileSync(join(import.meta.dirname, '..', '..', 'README.md'), 'utf8');

describe("README's configuration table", () => {
  const table = extractConfigTable(readme);

  it('sits between the config-table markers', () => {
    expect(table).not.toBeNull();
  });

  it.each(SETTINGS.map((s) => [s.env, s] as const))('lists %s with its default', (env, setting) => {
    const row = table?.split('\n').find((line) => line.startsWith(`| \`${env}\` |`));
    expect(
      row,
      `README has no row for ${env}; run \`npm run build && node scripts/config-table.mjs\``,
    ).toBeDefined();
    const expected = setting.default === null ? '(unset)' : `\`${setting.default}\``;
    expect(row).toContain(`| ${expected} |`);
  });

  it('matches SETTINGS exactly (regenerate with scripts/config-table.mjs)', () => {
    expect(table).toBe(renderConfigTable(SETTINGS));
  });

  it('regenerates idempotently', () => {
    const once = withConfigTable(readme, SETTINGS);
    expect(withConfigTable(once, SETTINGS)).toBe(once);
  });
});
