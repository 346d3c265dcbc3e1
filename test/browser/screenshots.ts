/**
 * Makes docs/widgets-themes.png: the ROA widget in both themes, as Chromium renders it when framed
 * at 300×130. Data: real FDIC quarterly ROA of a bank from ../shared/realdata (Cape Fear Bank,
 * Wilmington NC, the 20 quarters before it failed in April 2009), or the test fixture without it.
 *
 *   npx vite-node test/browser/screenshots.ts
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { DbHandle } from '../../src/db/connect.js';
import { searchKey } from '../../src/db/search.js';
import { HARBOR, seedWidgets } from '../http/embed.fixture.js';
import { chromiumPath, launchChromium, startApp, startHostServer } from './harness.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const HISTORY = join(
  ROOT,
  '../shared/realdata/fdic_financials/fdic_financials_failed_banks_history_1984_2018.csv',
);
const CAPE_FEAR = 34639;

/** ROA rows of one cert from the real file (`ROA` is column 2, `REPDTE` 3, `CERT` 5). */
function realRoa(cert: number): { report_date: string; roa: number }[] {
  return readFileSync(HISTORY, 'utf8')
    .split('\n')
    .slice(1)
    .map((line) => line.split(','))
    .filter((cells) => Number(cells[4]) === cert)
    .map((cells) => {
      const date = cells[2] ?? '';
      return {
        report_date: `${date.slice(0, 4)}-${date.slice(4, 6)}-${date.slice(6, 8)}`,
        roa: Number(cells[1]),
      };
    });
}

async function seedReal(writer: DbHandle): Promise<void> {
  const name = 'Cape Fear Bank';
  await writer.db
    .insertInto('institutions')
    .values({
      cert: CAPE_FEAR,
      name,
      search_name: searchKey(name),
      city: 'Wilmington',
      state: 'NC',
      active: 0,
    })
    .execute();
  const rows = realRoa(CAPE_FEAR).map((row) => ({ cert: CAPE_FEAR, ...row, source: 'fdic' }));
  await writer.db.insertInto('financials').values(rows).execute();
}

async function main() {
  const executable = chromiumPath();
  if (!executable) throw new Error('Chromium not found: set CHROMIUM_PATH or apt-get install chromium');
  const real = existsSync(HISTORY);
  const cert = real ? CAPE_FEAR : HARBOR;
  const [running, host, browser] = await Promise.all([
    startApp(real ? seedReal : seedWidgets),
    startHostServer(),
    launchChromium(executable),
  ]);
  try {
    const cell = (theme: string) =>
      `<figure><iframe src="${running.origin}/embed/${cert}/roa?theme=${theme}" width="300" height="130" style="border:0"></iframe><figcaption>theme=${theme}</figcaption></figure>`;
    const html = `<!DOCTYPE html><html><body style="margin:0;background:#e2e8f0;font:13px sans-serif;color:#334155">
      <main id="shot" style="display:flex;gap:24px;padding:20px;width:max-content">${cell('dark')}${cell('light')}</main>
      <style>figure{margin:0}figcaption{margin-top:6px;text-align:center}iframe{display:block}</style></body></html>`;
    const context = await browser.newContext({ viewport: { width: 720, height: 260 }, deviceScaleFactor: 2 });
    const page = await context.newPage();
    await page.goto(host.page('/shot.html', html), { waitUntil: 'load' });
    const png = await (await page.$('#shot'))?.screenshot();
    if (!png) throw new Error('nothing to capture');
    const out = join(ROOT, 'docs/widgets-themes.png');
    writeFileSync(out, png);
    console.log(`wrote ${out} (${png.length} bytes, ${real ? 'real FDIC data' : 'fixture data'})`);
  } finally {
    await browser.close();
    await host.close();
    await running.close();
  }
}

await main();
