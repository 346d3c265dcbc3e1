/**
 * Writes the OpenAPI document the server serves at /openapi.json to a file, without a server or
 * data: the app is built on an empty, migrated SQLite database (the document depends on the routes'
 * schemas only). The OpenAPI linter and the client generator read this file.
 *
 *   npx vite-node scripts/openapi-document.ts -- <out.json>
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { buildApp } from '../src/app.js';
import { configWith } from '../src/config.js';
import { openDatabase } from '../src/db/connect.js';
import { migrateToLatest } from '../src/db/migrate.js';

const out = process.argv.slice(2).find((arg) => arg !== '--');
if (!out) {
  console.error('usage: vite-node scripts/openapi-document.ts -- <out.json>');
  process.exit(2);
}

const dir = mkdtempSync(join(tmpdir(), 'regdata-openapi-'));
const handle = openDatabase(join(dir, 'empty.sqlite'));
try {
  await migrateToLatest(handle);
  const app = await buildApp(configWith({ logLevel: 'silent' }), { handle });
  await app.ready();
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, `${JSON.stringify(app.swagger(), null, 2)}\n`);
  await app.close();
} finally {
  await handle.close();
  rmSync(dir, { recursive: true, force: true });
}
