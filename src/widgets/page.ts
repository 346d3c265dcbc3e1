/**
 * HTML5 documents around the card: the widget page (the card inline, scaled to the frame, no
 * JavaScript), its error page, and the gallery of all eight widgets with copy-paste snippets.
 * Everything is built with xml.ts; the CSS below is constant and free of `<`, `>` and `&`.
 */
import { METRIC_KEYS, type MetricKey, type WidgetMetric, widgetMetric } from './metrics.js';
import { type ErrorCardProps, renderCard, renderErrorCard, type WidgetProps } from './render.js';
import { CARD_HEIGHT, CARD_WIDTH, FONT_FAMILY, PALETTES, type Theme } from './theme.js';
import { el, renderHtmlDocument, renderXml, type XmlElement } from './xml.js';

function cardDocument(title: string, theme: Theme, card: XmlElement): string {
  const css =
    `html,body{margin:0;padding:0;width:100%;height:100%;background:${PALETTES[theme].background}}` +
    'svg{display:block;width:100%;height:100%}';
  return renderHtmlDocument(
    el(
      'html',
      { lang: 'en' },
      el(
        'head',
        {},
        el('meta', { charset: 'utf-8' }),
        el('meta', { name: 'viewport', content: 'width=device-width, initial-scale=1' }),
        el('meta', { name: 'robots', content: 'noindex' }),
        el('title', {}, title),
        el('style', {}, css),
      ),
      el('body', {}, card),
    ),
  );
}

export function widgetPage(props: WidgetProps): string {
  return cardDocument(`${props.name} — ${widgetMetric(props.metric).label}`, props.theme, renderCard(props));
}

export function errorPage(props: ErrorCardProps): string {
  return cardDocument(`${props.title} (HTTP ${props.status})`, props.theme, renderErrorCard(props));
}

export interface GalleryProps {
  readonly cert: number;
  readonly name: string;
  readonly theme: Theme;
  /** Metrics with at least one reported value; the others get a note instead of a frame. */
  readonly available: ReadonlySet<MetricKey>;
  /** Absolute origin for the snippets (`https://host`), or '' for root-relative URLs. */
  readonly origin: string;
}

/** The copy-paste `<iframe>` for one widget, as HTML source text. */
export function iframeSnippet(
  origin: string,
  cert: number,
  metric: WidgetMetric,
  theme: Theme,
  name: string,
) {
  return renderXml(
    el('iframe', {
      src: `${origin}/embed/${cert}/${metric}?theme=${theme}`,
      width: CARD_WIDTH,
      height: CARD_HEIGHT,
      style: 'border:0',
      title: `${widgetMetric(metric).label} — ${name}`,
      loading: 'lazy',
    }),
    'html',
  );
}

export function imgSnippet(origin: string, cert: number, metric: WidgetMetric, theme: Theme, name: string) {
  return renderXml(
    el('img', {
      src: `${origin}/embed/${cert}/${metric}.svg?theme=${theme}`,
      width: CARD_WIDTH,
      height: CARD_HEIGHT,
      alt: `${widgetMetric(metric).label} — ${name}`,
    }),
    'html',
  );
}

const GALLERY_CSS =
  `body{margin:0 auto;padding:24px;max-width:1000px;font-family:${FONT_FAMILY};color:#0f172a;background:#f8fafc}` +
  'h1{font-size:22px;margin:0 0 4px}p{color:#475569;margin:0 0 16px}' +
  '.grid{display:grid;grid-template-columns:repeat(auto-fill,minmax(310px,1fr));gap:20px}' +
  'section{background:#fff;border:1px solid #e2e8f0;border-radius:8px;padding:12px}' +
  'h2{font-size:15px;margin:0 0 8px}iframe{display:block;border:0}' +
  'textarea{box-sizing:border-box;width:100%;margin-top:6px;font:12px ui-monospace,monospace;resize:vertical}' +
  'label{display:block;margin-top:8px;font-size:12px;color:#475569}.none{color:#b91c1c}';

function gallerySection(props: GalleryProps, metric: MetricKey): XmlElement {
  const { cert, name, theme, origin } = props;
  const label = widgetMetric(metric).label;
  if (!props.available.has(metric)) {
    return el(
      'section',
      { id: metric },
      el('h2', {}, label),
      el('p', { class: 'none' }, 'No data reported.'),
    );
  }
  const frameSrc = `/embed/${cert}/${metric}?theme=${theme}`;
  return el(
    'section',
    { id: metric },
    el('h2', {}, label),
    el('iframe', { src: frameSrc, width: CARD_WIDTH, height: CARD_HEIGHT, title: `${label} — ${name}` }),
    el('label', { for: `${metric}-iframe` }, 'Embed as a frame (HTML)'),
    el(
      'textarea',
      { id: `${metric}-iframe`, readonly: true, rows: 6 },
      iframeSnippet(origin, cert, metric, theme, name),
    ),
    el('label', { for: `${metric}-img` }, 'Embed as an image (SVG)'),
    el(
      'textarea',
      { id: `${metric}-img`, readonly: true, rows: 5 },
      imgSnippet(origin, cert, metric, theme, name),
    ),
  );
}

/** All eight widgets of one institution, each with its snippets, so a user can pick one. */
export function galleryPage(props: GalleryProps): string {
  const other: Theme = props.theme === 'dark' ? 'light' : 'dark';
  return renderHtmlDocument(
    el(
      'html',
      { lang: 'en' },
      el(
        'head',
        {},
        el('meta', { charset: 'utf-8' }),
        el('meta', { name: 'viewport', content: 'width=device-width, initial-scale=1' }),
        el('title', {}, `Widgets — ${props.name}`),
        el('style', {}, GALLERY_CSS),
      ),
      el(
        'body',
        {},
        el('h1', {}, `Embeddable widgets: ${props.name}`),
        el(
          'p',
          {},
          `FDIC certificate ${props.cert}. Theme: ${props.theme}. `,
          el('a', { href: `?theme=${other}` }, `Show the ${other} theme`),
          '. Copy a snippet into your page; each card is 300×130 and needs no JavaScript.',
        ),
        el('div', { class: 'grid' }, ...METRIC_KEYS.map((metric) => gallerySection(props, metric))),
      ),
    ),
  );
}
