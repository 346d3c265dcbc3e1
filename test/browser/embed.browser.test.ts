/**
 * The widget in real headless Chromium: framed at 300×130 by a page on another 127.0.0.1 origin, in
 * both themes. No scroll bars, the theme's background pixel, a visible sparkline, every text inside
 * the frame and apart from the others, no script, no CSP violation; plus the .svg form and gallery.
 * Skips with a visible message without Chromium; REQUIRE_BROWSER=1 turns that into a failure.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { METRIC_KEYS } from '../../src/widgets/metrics.js';
import { EMPTY, HARBOR, HOSTILE, HOSTILE_NAME, LONG, seedWidgets } from '../http/embed.fixture.js';
import {
  chromiumPath,
  type HostServer,
  launchChromium,
  pixelColours,
  type RunningApp,
  startApp,
  startHostServer,
} from './harness.js';
import {
  countOf,
  fieldValue,
  imageState,
  measureWidget,
  rootElementName,
  type TextBox,
  textOf,
} from './in-page.js';

const executable = chromiumPath();
const required = process.env.REQUIRE_BROWSER === '1';
const BACKGROUND = { dark: '#0f172a', light: '#ffffff' } as const;
const HOST_BACKGROUND = '#808080';

if (!executable) {
  const reason = 'Chromium not found (set CHROMIUM_PATH or `apt-get install chromium`)';
  if (required) {
    describe('widget in Chromium', () => {
      it('needs Chromium because REQUIRE_BROWSER=1', () => {
        throw new Error(reason);
      });
    });
  } else {
    console.warn(`\n⚠ Browser tests skipped: ${reason}. Set REQUIRE_BROWSER=1 to make this a failure.\n`);
    describe.skip(`widget in Chromium (skipped: ${reason})`, () => {
      it('skipped', () => {});
    });
  }
} else {
  browserSuite(executable);
}

function framePage(frames: { id: string; src: string }[]): string {
  const iframes = frames
    .map(
      (f) =>
        `<iframe id="${f.id}" src="${f.src}" width="300" height="130" style="border:0;display:block;margin:20px"></iframe>`,
    )
    .join('\n');
  return `<!DOCTYPE html><html><head><title>host</title></head><body style="margin:0;background:${HOST_BACKGROUND}">${iframes}</body></html>`;
}

function expectTextsInside(texts: TextBox[], width: number, height: number, label: string) {
  expect(texts.length, label).toBeGreaterThan(0);
  for (const t of texts) {
    expect(t.left, `${label}: "${t.text}" left`).toBeGreaterThanOrEqual(0);
    expect(t.top, `${label}: "${t.text}" top`).toBeGreaterThanOrEqual(0);
    expect(t.right, `${label}: "${t.text}" right`).toBeLessThanOrEqual(width);
    expect(t.bottom, `${label}: "${t.text}" bottom`).toBeLessThanOrEqual(height);
  }
  for (const [i, a] of texts.entries()) {
    for (const b of texts.slice(i + 1)) {
      const overlap = a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
      expect(overlap, `${label}: "${a.text}" overlaps "${b.text}"`).toBe(false);
    }
  }
}

function browserSuite(executablePath: string) {
  // Generous limits: CI runs this beside the whole suite on two cores.
  describe('widget in Chromium', { timeout: 90_000 }, () => {
    let browser: Browser;
    let running: RunningApp;
    let host: HostServer;
    let page: Page;
    const problems: string[] = [];

    beforeAll(async () => {
      [running, host, browser] = await Promise.all([
        startApp(seedWidgets),
        startHostServer(),
        launchChromium(executablePath),
      ]);
      const context = await browser.newContext({
        viewport: { width: 800, height: 900 },
        deviceScaleFactor: 1,
      });
      page = await context.newPage();
      page.on('dialog', (dialog) => {
        problems.push(`dialog: ${dialog.message()}`);
        void dialog.dismiss();
      });
      // HTTP errors are tracked by URL below; any other console error (a CSP violation) is a problem.
      page.on('console', (message) => {
        if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) {
          problems.push(`console: ${message.text()}`);
        }
      });
      page.on('response', (response) => {
        const url = response.url();
        if (response.status() >= 400 && !url.endsWith('/favicon.ico')) {
          problems.push(`http ${response.status()} ${url}`);
        }
      });
      page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
    });

    afterAll(async () => {
      await browser?.close();
      await host?.close();
      await running?.close();
    });

    it.each(['dark', 'light'] as const)('fits a 300×130 frame on another origin, %s theme', async (theme) => {
      const src = `${running.origin}/embed/${HARBOR}/roa?theme=${theme}`;
      await page.goto(host.page(`/one-${theme}.html`, framePage([{ id: 'w', src }])), { waitUntil: 'load' });
      const element = await page.$('#w');
      const frame = await element?.contentFrame();
      if (!element || !frame) throw new Error('widget frame missing');
      const m = await frame.evaluate(measureWidget);
      expect([m.width, m.height]).toEqual([300, 130]);
      expect(m.scrollWidth).toBeLessThanOrEqual(m.clientWidth);
      expect(m.scrollHeight).toBeLessThanOrEqual(m.clientHeight);
      expect([m.clientWidth, m.clientHeight]).toEqual([300, 130]); // no scroll bar took space
      expect(m.scripts).toBe(0);
      expect(m.lineLength).toBeGreaterThan(100);
      expect(m.lineStroke).not.toBe('none');
      expect(m.lineBox?.width).toBeGreaterThan(200);
      expect(m.lineBox?.top).toBeGreaterThanOrEqual(0);
      expect(m.lineBox?.bottom).toBeLessThanOrEqual(130);
      expectTextsInside(m.texts, 300, 130, theme);
      const box = await element.boundingBox();
      if (!box) throw new Error('no frame box');
      const shot = await page.screenshot();
      const [inside, corner, outside] = await pixelColours(page, shot, [
        [box.x + 150, box.y + 48],
        [box.x + 6, box.y + 122],
        [box.x + 150, box.y - 10],
      ]);
      expect(inside).toBe(BACKGROUND[theme]);
      expect(corner).toBe(BACKGROUND[theme]);
      expect(outside).toBe(HOST_BACKGROUND);
      expect(problems).toEqual([]);
    });

    it('keeps every text inside and apart for all institutions, metrics and both themes', async () => {
      const targets = [
        ...METRIC_KEYS.filter((metric) => metric !== 'charge_off_rate').map(
          (metric) => `${HARBOR}/${metric}`,
        ),
        `${HOSTILE}/roa`,
        `${LONG}/roa`,
        `${HARBOR}/charge_off_rate`, // a 404 card
        `${EMPTY}/roa`, // a 404 card
        'abc/roa', // a 400 card
        `${HARBOR}/assets`, // a 400 card with the longest message
      ];
      const frames = targets.flatMap((target, i) =>
        (['dark', 'light'] as const).map((theme) => ({
          id: `f${i}-${theme}`,
          src: `${running.origin}/embed/${target}?theme=${theme}`,
        })),
      );
      await page.goto(host.page('/all.html', framePage(frames)), { waitUntil: 'load' });
      for (const { id, src } of frames) {
        const frame = await (await page.$(`#${id}`))?.contentFrame();
        if (!frame) throw new Error(`frame ${id} missing`);
        const m = await frame.evaluate(measureWidget);
        expect(m.scrollWidth, src).toBeLessThanOrEqual(m.clientWidth);
        expect(m.scrollHeight, src).toBeLessThanOrEqual(m.clientHeight);
        expect(m.scripts, src).toBe(0);
        expectTextsInside(m.texts, 300, 130, src);
      }
      const hostile = await (await page.$('#f7-dark'))?.contentFrame();
      expect(await hostile?.evaluate(textOf, 'text.name')).toBe(HOSTILE_NAME);
      // The 404/400 cards are expected failures of the frames, not problems of the page.
      const expected =
        /^http (404 .*\/(charge_off_rate|9004\/roa)|400 .*\/(abc\/roa|9001\/assets))\?theme=(dark|light)$/;
      expect(problems.filter((p) => !expected.test(p))).toEqual([]);
      expect(problems.filter((p) => expected.test(p))).toHaveLength(8);
      problems.length = 0;
    });

    it('opens the .svg form directly and as an <img>', async () => {
      const url = `${running.origin}/embed/${HARBOR}/roa.svg?theme=light`;
      const response = await page.goto(url);
      expect(response?.headers()['content-type']).toMatch(/^image\/svg\+xml/);
      expect(await page.evaluate(rootElementName)).toBe('svg');
      const m = await page.evaluate(measureWidget);
      expect(m.lineLength).toBeGreaterThan(100);
      expectTextsInside(m.texts, 300, 130, 'svg');
      const img = `<!DOCTYPE html><body style="margin:0"><img id="i" src="${url}" width="300" height="130"></body>`;
      await page.goto(host.page('/img.html', img), { waitUntil: 'load' });
      expect(await page.evaluate(imageState, '#i')).toEqual([300, true]);
      const shot = await page.screenshot();
      expect(await pixelColours(page, shot, [[150, 48]])).toEqual([BACKGROUND.light]);
    });

    it('shows the gallery: a frame and working snippet per reported metric, no CSP violation', async () => {
      problems.length = 0;
      const response = await page.goto(`${running.origin}/embed/${HARBOR}`, { waitUntil: 'load' });
      expect(response?.status()).toBe(200);
      const children = page.frames().filter((frame) => frame !== page.mainFrame());
      expect(children).toHaveLength(7);
      for (const frame of children) {
        expect(await frame.evaluate(countOf, 'svg[role="img"]')).toBe(1);
      }
      const snippet = await page.evaluate(fieldValue, '#roa-iframe');
      expect(snippet).toBe(
        `<iframe src="${running.origin}/embed/${HARBOR}/roa?theme=dark" width="300" height="130" style="border:0" title="Return on assets — Harbor Bank &amp; Trust" loading="lazy"></iframe>`,
      );
      // The snippet, pasted into a page on another origin, shows the widget.
      await page.goto(host.page('/pasted.html', `<!DOCTYPE html><body>${snippet}</body>`), {
        waitUntil: 'load',
      });
      const pasted = await (await page.$('iframe'))?.contentFrame();
      expect(await pasted?.evaluate(textOf, 'text.name')).toBe('Harbor Bank & Trust');
      expect(problems).toEqual([]);
    });
  });
}
