import { rmSync } from 'node:fs';
import { openDatabase } from './src/db/connect.js';
import { buildDemo, DEFAULT_DEMO_SEED } from './src/demo/index.js';

const mode = process.argv.filter((a) => a !== '--')[2] ?? 'wal';
const path = `/tmp/exp/jm-${mode}.sqlite`;
for (const s of ['', '-wal', '-shm', '-journal']) rmSync(path + s, { force: true });
const handle = openDatabase(path);
if (mode !== 'wal' && mode !== 'auto')
  console.log(handle.sqlite!.pragma(`journal_mode = ${mode}`, { simple: true }));

import Database from 'better-sqlite3';

if (mode === 'wal') {
  handle.sqlite!.exec('create table if not exists keep(x)');
  const r = new Database(path, { readonly: true });
  r.prepare('select count(*) from keep').get();
}
const t = Date.now();
const c = process.cpuUsage();
await buildDemo(handle, {
  seed: DEFAULT_DEMO_SEED,
  scale: (process.env.SCALE ?? 'small') as 'small',
  log: (l) => console.log(`${Date.now() - t} ${l.slice(0, 90)}`),
});
await handle.close();
const u = process.cpuUsage(c);
console.log(
  `${mode}: wall ${Date.now() - t} ms user ${Math.round(u.user / 1000)} sys ${Math.round(u.system / 1000)}`,
);
