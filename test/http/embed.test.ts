/** SPEC §2 /embed: every status, header and content type of the widget, its .svg form and gallery. */
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { FINANCIAL_FIELDS, financialField } from '../../src/banking/fields/catalogue.js';
import { iframeSnippet } from '../../src/widgets/page.js';
import { GALLERY_CSP, WIDGET_CSP } from '../../src/widgets/widgets.routes.js';
import { useTestApp } from '../helpers/app.js';
import { testBackends } from '../helpers/backends.js';
import { byClass, byName, inlineSvg, one, parseXml } from '../unit/widgets.parse.js';
import {
  EMPTY,
  HARBOR,
  HOSTILE,
  HOSTILE_NAME,
  LATEST,
  LONG,
  LONG_NAME,
  seedWidgets,
  UNKNOWN,
} from './embed.fixture.js';

const CACHE = 'public, max-age=300, stale-while-revalidate=86400';
const get = (app: FastifyInstance, url: string, headers: Record<string, string> = {}) =>
  app.inject({ method: 'GET', url, headers });

describe.each(testBackends())('/embed on $name', (backend) => {
  const ctx = useTestApp(backend, seedWidgets);

  it('serves the HTML card with the widget headers', async () => {
    const response = await get(ctx.app, `/embed/${HARBOR}/roa`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(response.headers['content-security-policy']).toBe(WIDGET_CSP);
    expect(response.headers['content-security-policy']).toBe(
      "default-src 'none'; style-src 'unsafe-inline'; img-src data:; frame-ancestors *",
    );
    expect(response.headers['x-frame-options']).toBeUndefined();
    expect(response.headers['cache-control']).toBe(CACHE);
    expect(response.body.startsWith('<!DOCTYPE html>')).toBe(true);
    expect(response.body).not.toMatch(/<script/i);
    const svg = inlineSvg(response.body);
    expect(svg.children[0]?.attrs.role).toBe('img');
    expect(svg.children[0]?.attrs['aria-label']).toContain('Return on assets of Harbor Bank & Trust');
    expect(byName(svg, 'title')[0]?.text).toBe('Harbor Bank & Trust — Return on assets');
    expect(one(svg, 'name').text).toBe('Harbor Bank & Trust');
    expect(one(svg, 'label').text).toBe('Return on assets');
    expect(one(svg, 'date').text).toBe(LATEST);
    expect(one(svg, 'value').text).toMatch(/^-?\d+\.\d{2}%$/);
    expect(one(svg, 'change').text).toMatch(/^[▲▼] \d+\.\d{2} pp$|^unchanged$/);
    expect(one(svg, 'spark-line').attrs.d).toMatch(/^M[\d.]+,[\d.]+C/);
  });

  it('accepts every percent field of the catalogue as a metric, labelled with its title', async () => {
    const response = await get(ctx.app, `/embed/${HARBOR}/net_interest_margin.svg`);
    expect(response.statusCode).toBe(200);
    const svg = inlineSvg(response.body);
    expect(one(svg, 'label').text).toBe(financialField('net_interest_margin')!.title);
    expect(one(svg, 'value').text).toMatch(/^\d+\.\d{2}%$/);
    const amount = await get(ctx.app, `/embed/${HARBOR}/total_assets`);
    expect(amount.statusCode).toBe(400);
    for (const field of FINANCIAL_FIELDS.filter((f) => f.unit === 'percent')) {
      const answer = await get(ctx.app, `/embed/${HARBOR}/${field.name}`);
      expect([200, 404], field.name).toContain(answer.statusCode);
    }
  });

  it('draws at most the last 20 quarters, leaving a gap for a missing quarter row', async () => {
    const response = await get(ctx.app, `/embed/${HARBOR}/roe`);
    const svg = inlineSvg(response.body);
    expect(svg.children[0]?.attrs['aria-label']).toContain('last 20 quarters');
    // 2024-Q4 has no row: the line is split into two subpaths.
    expect(one(svg, 'spark-line').attrs.d?.match(/M/g)).toHaveLength(2);
  });

  it('shows the latest reported value when the newest quarter is not reported', async () => {
    const svg = inlineSvg((await get(ctx.app, `/embed/${HARBOR}/loan_to_deposit`)).body);
    expect(one(svg, 'date').text).toBe('2026-03-31');
  });

  it.each([
    ['', '#0f172a'],
    ['?theme=dark', '#0f172a'],
    ['?theme=light', '#ffffff'],
    ['?theme=LIGHT', '#ffffff'],
    ['?theme=%20Dark%20', '#0f172a'],
  ])('applies the theme %s (background %s)', async (query, background) => {
    const response = await get(ctx.app, `/embed/${HARBOR}/roa${query}`);
    expect(response.statusCode).toBe(200);
    expect(one(inlineSvg(response.body), 'card').attrs.fill).toBe(background);
    expect(response.body).toContain(`background:${background}`);
  });

  it.each([
    ['invalid theme', `/embed/${HARBOR}/roa?theme=blue`, 400, 'theme'],
    ['repeated theme', `/embed/${HARBOR}/roa?theme=dark&theme=light`, 400, 'theme'],
    ['non-numeric cert', '/embed/abc/roa', 400, 'cert'],
    ['zero cert', '/embed/0/roa', 400, 'cert'],
    ['cert beyond 32 bits', '/embed/99999999999/roa', 400, 'cert'],
    ['decimal cert', '/embed/1.5/roa', 400, 'cert'],
    ['unknown metric', `/embed/${HARBOR}/assets`, 400, 'metric'],
    ['unknown cert', `/embed/${UNKNOWN}/roa`, 404, String(UNKNOWN)],
    ['metric never reported', `/embed/${HARBOR}/charge_off_rate`, 404, 'net charge-off rate'],
    ['institution without financials', `/embed/${EMPTY}/roa`, 404, 'No Financials Savings'],
    ['unknown sub-route', `/embed/${HARBOR}/roa/extra`, 404, '/embed/{cert}/{metric}'],
  ])('answers %s with a widget-styled HTML %i', async (_case, url, status, mentions) => {
    const response = await get(ctx.app, url);
    expect(response.statusCode).toBe(status);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(response.headers['content-security-policy']).toBe(WIDGET_CSP);
    expect(response.headers['x-frame-options']).toBeUndefined();
    expect(response.body.startsWith('<!DOCTYPE html>')).toBe(true);
    const svg = inlineSvg(response.body);
    expect(one(svg, 'error-status').text).toBe(`regdata · HTTP ${status}`);
    expect(svg.children[0]?.attrs['aria-label']).toContain(mentions);
  });

  it('keeps the requested theme on an error card', async () => {
    const response = await get(ctx.app, `/embed/${UNKNOWN}/roa?theme=light`);
    expect(response.statusCode).toBe(404);
    expect(one(inlineSvg(response.body), 'card').attrs.fill).toBe('#ffffff');
  });

  it('serves the .svg form as image/svg+xml, with SVG error cards', async () => {
    const ok = await get(ctx.app, `/embed/${HARBOR}/roa.svg?theme=light`);
    expect(ok.statusCode).toBe(200);
    expect(ok.headers['content-type']).toMatch(/^image\/svg\+xml/);
    expect(ok.headers['content-security-policy']).toBe(WIDGET_CSP);
    expect(ok.headers['cache-control']).toBe(CACHE);
    const svg = parseXml(ok.body).children[0];
    expect(svg?.attrs).toMatchObject({ xmlns: 'http://www.w3.org/2000/svg', role: 'img', width: '300' });
    for (const [url, status] of [
      ['/embed/abc/roa.svg', 400],
      [`/embed/${HARBOR}/roa.svg?theme=blue`, 400],
      [`/embed/${UNKNOWN}/roa.svg`, 404],
      [`/embed/${HARBOR}/charge_off_rate.svg`, 404],
    ] as const) {
      const error = await get(ctx.app, url);
      expect(error.statusCode, url).toBe(status);
      expect(error.headers['content-type'], url).toMatch(/^image\/svg\+xml/);
      expect(one(parseXml(error.body), 'error-status').text).toBe(`regdata · HTTP ${status}`);
    }
  });

  it('renders a hostile name as text in the page, the SVG and the gallery', async () => {
    for (const url of [`/embed/${HOSTILE}/roa`, `/embed/${HOSTILE}/roa.svg`]) {
      const response = await get(ctx.app, url);
      expect(response.statusCode).toBe(200);
      const svg = url.endsWith('.svg') ? parseXml(response.body) : inlineSvg(response.body);
      expect(byName(svg, 'script')).toEqual([]);
      expect(one(svg, 'name').text).toBe(HOSTILE_NAME);
      expect(response.body).not.toContain('<script');
    }
    const gallery = await get(ctx.app, `/embed/${HOSTILE}`);
    expect(gallery.statusCode).toBe(200);
    expect(gallery.body).not.toContain('<script');
    expect(gallery.body).toContain('&lt;script&gt;alert(1)&lt;/script&gt; &amp; "Co"');
  });

  it('truncates a very long name and handles a single quarter', async () => {
    const svg = inlineSvg((await get(ctx.app, `/embed/${LONG}/roa`)).body);
    expect(one(svg, 'name').text.endsWith('…')).toBe(true);
    expect(LONG_NAME.startsWith(one(svg, 'name').text.slice(0, -1))).toBe(true);
    expect(byName(svg, 'title')[0]?.text).toBe(`${LONG_NAME} — Return on assets`);
    expect(one(svg, 'value').text).toBe('-0.42%');
    expect(one(svg, 'change-sub').text).toBe('no prior quarter');
    expect(byClass(svg, 'spark-line')).toEqual([]);
    expect(byClass(svg, 'spark-latest')).toHaveLength(1);
  });

  it('answers HEAD and revalidation like the data routes', async () => {
    const head = await ctx.app.inject({ method: 'HEAD', url: `/embed/${HARBOR}/roa` });
    expect(head.statusCode).toBe(200);
    expect(head.body).toBe('');
    const first = await get(ctx.app, `/embed/${HARBOR}/npl_ratio`);
    const etag = String(first.headers.etag);
    expect(etag).toMatch(/^"/);
    const again = await get(ctx.app, `/embed/${HARBOR}/npl_ratio`, { 'if-none-match': etag });
    expect(again.statusCode).toBe(304);
    // A body replayed from the response cache carries the widget headers too.
    const cached = await get(ctx.app, `/embed/${HARBOR}/npl_ratio`);
    expect(cached.body).toBe(first.body);
    expect(cached.headers['content-security-policy']).toBe(WIDGET_CSP);
    expect(cached.headers['x-frame-options']).toBeUndefined();
    expect(cached.headers['content-type']).toBe('text/html; charset=utf-8');
  });

  it('serves the gallery with its own CSP, one frame and snippet per reported metric', async () => {
    const response = await get(ctx.app, `/embed/${HARBOR}?theme=light`, { host: 'widgets.example.org' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(response.headers['content-security-policy']).toBe(GALLERY_CSP);
    expect(response.headers['content-security-policy']).toContain("frame-src 'self'");
    expect(response.headers['cache-control']).toBe(CACHE);
    expect(response.body.match(/<section /g)).toHaveLength(8);
    expect(response.body.match(/<iframe /g)).toHaveLength(7); // charge-off rate was never reported
    expect(response.body).toContain('No data reported.');
    const textareas = [...response.body.matchAll(/<textarea[^>]*>([^<]*)<\/textarea>/g)].map((m) =>
      (m[1] ?? '').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&'),
    );
    expect(textareas).toContain(
      iframeSnippet('http://widgets.example.org', HARBOR, 'roa', 'light', 'Harbor Bank & Trust'),
    );
    expect(textareas[0]).toBe(
      '<iframe src="http://widgets.example.org/embed/9001/roa?theme=light" width="300" height="130" style="border:0" title="Return on assets — Harbor Bank &amp; Trust" loading="lazy"></iframe>',
    );
  });

  it('answers gallery errors as widget-styled pages', async () => {
    expect((await get(ctx.app, '/embed/abc')).statusCode).toBe(400);
    expect((await get(ctx.app, `/embed/${HARBOR}?theme=blue`)).statusCode).toBe(400);
    const unknown = await get(ctx.app, `/embed/${UNKNOWN}`);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.headers['content-type']).toBe('text/html; charset=utf-8');
  });

  it('leaves the JSON APIs their problem documents', async () => {
    const response = await get(ctx.app, '/api/v1/failures?limit=abc');
    expect(response.statusCode).toBe(400);
    expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
  });

  it('documents the three routes in OpenAPI', async () => {
    const spec = JSON.parse((await get(ctx.app, '/openapi.json')).body);
    expect(Object.keys(spec.paths)).toEqual(
      expect.arrayContaining(['/embed/{cert}', '/embed/{cert}/{metric}', '/embed/{cert}/{metric}.svg']),
    );
  });
});

describe.each(testBackends())('/embed failures on $name', (backend) => {
  const ctx = useTestApp(backend, async (writer) => {
    await seedWidgets(writer);
    await writer.db.schema.dropTable('financials').execute();
  });

  it('answers a database failure with a generic 500 card and no-store', async () => {
    const response = await get(ctx.app, `/embed/${HARBOR}/roa`, { 'x-request-id': 'req-embed-500' });
    expect(response.statusCode).toBe(500);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(response.headers['content-security-policy']).toBe(WIDGET_CSP);
    expect(response.body).toContain('req-embed-500');
    expect(response.body).not.toMatch(/financials|no such table|SELECT/i);
  });
});

describe.each(testBackends())('/embed rate limiting on $name', (backend) => {
  const ctx = useTestApp(backend, seedWidgets, { rateLimitMax: 1 });

  it('answers an exceeded rate limit with a 429 card and Retry-After', async () => {
    expect((await get(ctx.app, `/embed/${HARBOR}/roa`)).statusCode).toBe(200);
    const limited = await get(ctx.app, `/embed/${HARBOR}/roa.svg?theme=light`);
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toMatch(/^\d+$/);
    expect(limited.headers['content-type']).toMatch(/^image\/svg\+xml/);
    const card = parseXml(limited.body);
    expect(one(card, 'error-title').text).toBe('Too many requests');
    expect(one(card, 'card').attrs.fill).toBe('#ffffff');
  });
});
