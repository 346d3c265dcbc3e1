/**
 * render(props): the widget card as one SVG element tree, 300×130, used inline by the HTML page and
 * standalone by the `.svg` form. Pure: same props, same markup. All text goes through xml.ts.
 */
import { type Better, type WidgetMetric, widgetMetric } from './metrics.js';
import { quarterLabel, type SeriesPoint, type Summary, summarise } from './series.js';
import { sparkline } from './sparkline.js';
import { estimateWidth, fitFontSize, formatPercent, formatPoints, truncate, wrapText } from './text.js';
import { CARD_HEIGHT, CARD_WIDTH, FONT_FAMILY, PALETTES, type Palette, type Theme } from './theme.js';
import { el, renderXml, type XmlChild, type XmlElement } from './xml.js';

export interface WidgetProps {
  /** Institution name, shown truncated to fit; in full in `<title>` and `aria-label`. */
  readonly name: string;
  readonly metric: WidgetMetric;
  readonly theme: Theme;
  /** Ascending quarterly series (see series.ts); the last point holds the latest value. */
  readonly series: readonly SeriesPoint[];
}

export interface ErrorCardProps {
  readonly status: number;
  readonly title: string;
  readonly detail: string;
  readonly theme: Theme;
}

const PAD = 12;
const INNER = CARD_WIDTH - 2 * PAD;
const RIGHT = CARD_WIDTH - PAD;

type Tone = 'good' | 'bad' | 'neutral';

export function changeTone(change: number | null, better: Better): Tone {
  if (change === null || change === 0 || better === 'neutral') return 'neutral';
  return change > 0 === (better === 'higher') ? 'good' : 'bad';
}

/** The two change lines (`▲ 0.05 pp`, `vs Q1 2026`) and the words a screen reader hears. */
export function describeChange(summary: Summary): { main: string; sub: string; spoken: string } {
  const { previous, change } = summary;
  if (previous === null) return { main: '—', sub: 'no prior quarter', spoken: 'no prior quarter reported' };
  const vs = `vs ${quarterLabel(previous.date)}`;
  if (change === null) return { main: '—', sub: `${vs} n/a`, spoken: 'previous quarter not reported' };
  if (change === 0) return { main: 'unchanged', sub: vs, spoken: 'unchanged from the previous quarter' };
  const direction = change > 0 ? 'up' : 'down';
  return {
    main: `${change > 0 ? '▲' : '▼'} ${formatPoints(change)}`,
    sub: vs,
    spoken: `${direction} ${formatPoints(change).replace('pp', 'percentage points')} from the previous quarter`,
  };
}

function frame(palette: Palette, label: string, spoken: string, ...children: XmlChild[]): XmlElement {
  return el(
    'svg',
    {
      xmlns: 'http://www.w3.org/2000/svg',
      width: CARD_WIDTH,
      height: CARD_HEIGHT,
      viewBox: `0 0 ${CARD_WIDTH} ${CARD_HEIGHT}`,
      role: 'img',
      'aria-label': spoken,
      'font-family': FONT_FAMILY,
    },
    el('title', {}, label),
    el('rect', {
      class: 'card',
      x: 0.5,
      y: 0.5,
      width: CARD_WIDTH - 1,
      height: CARD_HEIGHT - 1,
      rx: 8,
      fill: palette.background,
      stroke: palette.border,
    }),
    ...children,
  );
}

function text(attrs: Record<string, string | number>, content: string): XmlElement {
  return el('text', { x: PAD, ...attrs }, content);
}

/** Name on the first line; metric label and report date on the second. */
function heading(props: WidgetProps, date: string, palette: Palette): XmlElement[] {
  const label = widgetMetric(props.metric).label;
  const dateWidth = estimateWidth(date, 12);
  return [
    text(
      { class: 'name', y: 25, 'font-size': 14, 'font-weight': 700, fill: palette.text },
      truncate(props.name, INNER, 14, true),
    ),
    text(
      { class: 'label', y: 43, 'font-size': 12, fill: palette.muted },
      truncate(label, INNER - dateWidth - 8, 12),
    ),
    text(
      { class: 'date', x: RIGHT, y: 43, 'font-size': 12, fill: palette.muted, 'text-anchor': 'end' },
      date,
    ),
  ];
}

/** The latest value on the left (shrunk to fit), the change against the previous quarter on the right. */
function figures(value: string, summary: Summary, better: Better, palette: Palette): XmlElement[] {
  const change = describeChange(summary);
  const tone = changeTone(summary.change, better);
  const changeWidth = Math.max(estimateWidth(change.main, 13, true), estimateWidth(change.sub, 11));
  const valueSize = fitFontSize(value, INNER - changeWidth - 10, 26, 12, true);
  const right = { x: RIGHT, 'text-anchor': 'end' };
  const toneColour = tone === 'neutral' ? palette.muted : palette[tone];
  return [
    text({ class: 'value', y: 77, 'font-size': valueSize, 'font-weight': 700, fill: palette.text }, value),
    text(
      {
        class: `change change-${tone}`,
        ...right,
        y: 64,
        'font-size': 13,
        'font-weight': 700,
        fill: toneColour,
      },
      change.main,
    ),
    text({ class: 'change-sub', ...right, y: 79, 'font-size': 11, fill: palette.muted }, change.sub),
  ];
}

/** The widget card for one institution and metric. */
export function renderCard(props: WidgetProps): XmlElement {
  const palette = PALETTES[props.theme];
  const metric = widgetMetric(props.metric);
  const summary = summarise(props.series);
  if (!summary) throw new Error('renderCard needs a series ending in a reported value');
  const value = formatPercent(summary.latest.value);
  const quarters = props.series.length;
  const spoken =
    `${metric.label} of ${props.name}: ${value} on ${summary.latest.date}, ${describeChange(summary).spoken}. ` +
    (quarters === 1 ? 'Only this quarter is reported.' : `Sparkline of the last ${quarters} quarters.`);
  return frame(
    palette,
    `${props.name} — ${metric.label}`,
    spoken,
    ...heading(props, summary.latest.date, palette),
    ...figures(value, summary, metric.better, palette),
    sparkline(
      props.series,
      { x: PAD + 2, y: 90, width: INNER - 4, height: 28 },
      { line: palette.line, area: palette.line, background: palette.background, zero: palette.zero },
    ),
  );
}

/** An error in the widget's own shape: what went wrong, in the same size and theme. */
export function renderErrorCard(props: ErrorCardProps): XmlElement {
  const palette = PALETTES[props.theme];
  const lines = wrapText(props.detail, INNER, 12, 4);
  return frame(
    palette,
    `${props.title} (HTTP ${props.status})`,
    `${props.title}: ${props.detail}`,
    text(
      { class: 'error-title', y: 26, 'font-size': 14, 'font-weight': 700, fill: palette.text },
      truncate(props.title, INNER, 14, true),
    ),
    ...lines.map((line, index) =>
      text({ class: 'error-detail', y: 47 + index * 16, 'font-size': 12, fill: palette.muted }, line),
    ),
    text(
      { class: 'error-status', y: 118, 'font-size': 11, fill: palette.muted },
      `regdata · HTTP ${props.status}`,
    ),
  );
}

/** The card as a standalone SVG document (`image/svg+xml`). */
export function render(props: WidgetProps): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n${renderXml(renderCard(props))}\n`;
}

export function renderError(props: ErrorCardProps): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n${renderXml(renderErrorCard(props))}\n`;
}
