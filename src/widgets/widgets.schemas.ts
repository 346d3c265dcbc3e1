import { Type } from 'typebox';
import { enumParam } from '../http/params.js';
import { WIDGET_METRIC_KEYS } from './metrics.js';
import { THEMES } from './theme.js';

// institutions.cert is a 32-bit integer column; a larger number must be a 400, not a database error.
const MAX_CERT = 2_147_483_647;

const certParam = Type.Integer({
  minimum: 1,
  maximum: MAX_CERT,
  'x-error': 'must be a positive integer (FDIC certificate number)',
  description: 'FDIC certificate number of the institution (positive integer)',
});

export const GalleryParams = Type.Object({ cert: certParam });

export const WidgetParams = Type.Object({
  cert: certParam,
  metric: enumParam(
    WIDGET_METRIC_KEYS,
    'Metric shown (all percent): the eight of the gallery (return on assets, return on equity, efficiency ratio, equity to assets, noncurrent loans, tier 1 leverage, loans to deposits, net charge-off rate) or any other `percent` field of GET /api/v1/fields',
  ),
});

export const ThemeQuery = Type.Object({
  theme: enumParam(
    THEMES,
    'Colour theme: `dark` (navy card) or `light` (white #ffffff card); default `dark`',
    'dark',
  ),
});

export const WidgetHtml = Type.String({
  description:
    'HTML5 page (text/html; charset=utf-8) holding the 300×130 card as inline SVG: institution name, metric label, latest value in percent, report date (YYYY-MM-DD), change against the previous quarter in percentage points (pp) with arrow and colour, and a sparkline of up to the last 20 quarters. No JavaScript; frameable by any site.',
});

export const WidgetSvg = Type.String({
  description:
    'The same 300×130 card as a standalone SVG document (image/svg+xml), for <img> tags. Values in percent, changes in percentage points.',
});

export const GalleryHtml = Type.String({
  description:
    'HTML5 page showing all eight widgets of the institution, each framed at 300×130 with its copy-paste <iframe> and <img> snippets.',
});

export const HtmlError = Type.String({
  description:
    'Error as a small widget-styled HTML page (400 invalid cert, metric or theme; 404 unknown cert or no data for the metric)',
});

export const SvgError = Type.String({
  description: 'Error as a small widget-styled SVG card (400 invalid parameter; 404 unknown cert or no data)',
});
