/**
 * /embed routes, named relative to the family's `/embed` prefix. They run in their own plugin
 * context, so the error and not-found handlers below answer every /embed failure (including the
 * global parameter normaliser's 400s) as widget-styled HTML or SVG, while the JSON APIs keep their
 * problem documents.
 */
import { STATUS_CODES } from 'node:http';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../db/tables.js';
import { notFound, ProblemError } from '../http/problem.js';
import { type WidgetMetric, widgetMetric } from './metrics.js';
import { errorPage, galleryPage, widgetPage } from './page.js';
import { render, renderError, type WidgetProps } from './render.js';
import { toQuarterlySeries } from './series.js';
import { THEMES, type Theme } from './theme.js';
import { findInstitution, metricHistory, metricsWithData } from './widgets.queries.js';
import {
  GalleryHtml,
  GalleryParams,
  HtmlError,
  SvgError,
  ThemeQuery,
  WidgetHtml,
  WidgetParams,
  WidgetSvg,
} from './widgets.schemas.js';

/** Widgets may be framed by any site (SPEC §2); they load nothing but inline styles and data: images. */
export const WIDGET_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; frame-ancestors *";
/** The gallery frames same-origin widgets and is not itself meant to be framed elsewhere. */
export const GALLERY_CSP =
  "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; frame-src 'self'; frame-ancestors 'self'; base-uri 'none'; form-action 'none'";

const GALLERY_PATH = '/:cert';
const HTML = 'text/html; charset=utf-8';
const SVG = 'image/svg+xml; charset=utf-8';

function send(reply: FastifyReply, type: string, body: string) {
  return reply.type(type).send(body);
}

/**
 * Set in onSend so answers replayed by the response cache (src/http/cache.ts) carry them too.
 * `galleryUrl` is the gallery's full pattern, as `routeOptions.url` gives it.
 */
function securityHeaders(request: FastifyRequest, reply: FastifyReply, galleryUrl: string) {
  const gallery = request.routeOptions.url === galleryUrl && reply.statusCode === 200;
  reply.header('content-security-policy', gallery ? GALLERY_CSP : WIDGET_CSP);
  reply.header('x-content-type-options', 'nosniff');
  reply.removeHeader('x-frame-options');
}

/** Snippet origin from the request; only a sane Host is echoed, otherwise URLs stay root-relative. */
function publicOrigin(request: FastifyRequest): string {
  const host = request.host;
  if (!/^[A-Za-z0-9.-]+(:\d+)?$/.test(host)) return '';
  const forwarded = String(request.headers['x-forwarded-proto'] ?? '')
    .split(',')[0]
    ?.trim();
  const protocol = forwarded === 'https' || request.protocol === 'https' ? 'https' : 'http';
  return `${protocol}://${host}`;
}

async function loadWidget(db: Kysely<Database>, cert: number, metric: WidgetMetric, theme: Theme) {
  const institution = await findInstitution(db, cert);
  if (!institution) throw notFound(`No institution with FDIC certificate ${cert}.`);
  const series = toQuarterlySeries(await metricHistory(db, cert, metric));
  if (series.length === 0) {
    throw notFound(`No ${widgetMetric(metric).label.toLowerCase()} reported for ${institution.name}.`);
  }
  return { name: institution.name, metric, theme, series } satisfies WidgetProps;
}

/** The theme asked for, if valid, so even an error card matches the host page. */
function requestedTheme(request: FastifyRequest): Theme {
  const raw = (request.query as Record<string, unknown> | undefined)?.theme;
  const theme = typeof raw === 'string' ? raw.trim().toLowerCase() : '';
  return (THEMES as readonly string[]).includes(theme) ? (theme as Theme) : 'dark';
}

function toErrorCard(error: FastifyError | ProblemError, request: FastifyRequest) {
  const theme = requestedTheme(request);
  if (error instanceof ProblemError) {
    return { status: error.status, title: error.title, detail: error.detail, theme };
  }
  const status = error.validation ? 400 : (error.statusCode ?? 500);
  if (status >= 400 && status < 500) {
    const title = status === 400 ? 'Invalid parameter' : (STATUS_CODES[status] ?? 'Bad request');
    return { status, title, detail: error.message, theme };
  }
  const detail = `The widget could not be drawn. Request id ${request.id}.`;
  return { status: 500, title: 'Internal error', detail, theme };
}

export const embedRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const card = toErrorCard(error, request);
    // e.g. Retry-After of a rate-limited request
    if (error instanceof ProblemError) reply.headers(error.headers);
    if (card.status >= 500) {
      request.log.error({ err: error }, 'widget failed');
      reply.header('cache-control', 'no-store');
    }
    reply.code(card.status);
    return request.routeOptions.url?.endsWith('.svg')
      ? send(reply, SVG, renderError(card))
      : send(reply, HTML, errorPage(card));
  });
  app.setNotFoundHandler((request, reply) => {
    const detail = 'Widgets live at /embed/{cert}/{metric}, /embed/{cert}/{metric}.svg and /embed/{cert}.';
    const card = { status: 404, title: 'Not found', detail, theme: requestedTheme(request) };
    return send(reply.code(404), HTML, errorPage(card));
  });
  const galleryUrl = `${app.prefix}${GALLERY_PATH}`;
  app.addHook('onSend', async (request, reply, payload) => {
    securityHeaders(request, reply, galleryUrl);
    return payload;
  });

  const tags = ['widgets'];
  app.get(
    GALLERY_PATH,
    {
      schema: {
        tags,
        summary: 'Gallery of all eight widgets of one institution, with copy-paste snippets',
        params: GalleryParams,
        querystring: ThemeQuery,
        produces: ['text/html'],
        response: { 200: GalleryHtml, 400: HtmlError, 404: HtmlError },
      },
      config: { cache: false },
    },
    async (request, reply) => {
      const { cert } = request.params;
      const institution = await findInstitution(app.db, cert);
      if (!institution) throw notFound(`No institution with FDIC certificate ${cert}.`);
      const available = await metricsWithData(app.db, cert);
      const origin = publicOrigin(request);
      const theme = request.query.theme;
      const page = galleryPage({ cert, name: institution.name, theme, available, origin });
      // The snippets echo the Host header, so the page varies by host and skips the shared cache.
      reply.header('cache-control', app.config.cacheControl).header('vary', 'Host');
      return send(reply, HTML, page);
    },
  );

  app.get(
    '/:cert/:metric',
    {
      schema: {
        tags,
        summary: 'Embeddable 300×130 sparkline card of one metric (HTML page for an iframe)',
        params: WidgetParams,
        querystring: ThemeQuery,
        produces: ['text/html'],
        response: { 200: WidgetHtml, 400: HtmlError, 404: HtmlError },
      },
    },
    async (request, reply) => {
      const { cert, metric } = request.params;
      const props = await loadWidget(app.db, cert, metric, request.query.theme);
      reply.header('cache-control', app.config.cacheControl);
      return send(reply, HTML, widgetPage(props));
    },
  );

  app.get(
    '/:cert/:metric.svg',
    {
      schema: {
        tags,
        summary: 'The same card as a standalone SVG image (for <img> tags)',
        params: WidgetParams,
        querystring: ThemeQuery,
        produces: ['image/svg+xml'],
        response: { 200: WidgetSvg, 400: SvgError, 404: SvgError },
      },
    },
    async (request, reply) => {
      const { cert, metric } = request.params;
      const props = await loadWidget(app.db, cert, metric, request.query.theme);
      reply.header('cache-control', app.config.cacheControl);
      return send(reply, SVG, render(props));
    },
  );
};
