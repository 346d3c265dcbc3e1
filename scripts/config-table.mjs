#!/usr/bin/env node
// Regenerates README's configuration table from SETTINGS in src/config.ts (via the build in dist/).
// Usage: npm run build && node scripts/config-table.mjs
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const built = join(root, 'dist', 'config-docs.js');
if (!existsSync(built)) {
  console.error('config-table: dist/ is missing; run `npm run build` first');
  process.exit(1);
}
const { withConfigTable } = await import(built);
const { SETTINGS } = await import(join(root, 'dist', 'config.js'));
const readmePath = join(root, 'README.md');
const before = readFileSync(readmePath, 'utf8');
const after = withConfigTable(before, SETTINGS);
if (after === before) {
  console.log('README configuration table is up to date');
} else {
  writeFileSync(readmePath, after);
  console.log(`README configuration table rewritten (${SETTINGS.length} settings)`);
}
