/**
 * Sparkline geometry from d3-scale and d3-shape (no hand-rolled path maths): a monotone line that
 * never overshoots the data, a faint area under it, gaps where a quarter is null, a dot for every
 * isolated value, a larger dot on the latest value, and a dashed zero line when the series crosses 0.
 */
import { scaleLinear } from 'd3-scale';
import { area, curveMonotoneX, line } from 'd3-shape';
import type { SeriesPoint } from './series.js';
import { el, type XmlElement } from './xml.js';

export interface Box {
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
}

export interface SparklineColors {
  readonly line: string;
  readonly area: string;
  readonly background: string;
  readonly zero: string;
}

interface Plotted {
  readonly x: number;
  readonly y: number | null;
}

/** Value domain with headroom; a flat series gets a band around its value so it sits mid-box. */
function valueDomain(values: readonly number[]): [number, number] {
  const min = Math.min(...values);
  const max = Math.max(...values);
  if (min === max) {
    const pad = Math.max(Math.abs(min) * 0.1, 0.5);
    return [min - pad, max + pad];
  }
  const pad = (max - min) * 0.08;
  return [min - pad, max + pad];
}

function plot(series: readonly SeriesPoint[], box: Box) {
  const values = series.flatMap((point) => (point.value === null ? [] : [point.value]));
  const last = Math.max(series.length - 1, 1);
  // A single quarter sits at the right edge, where the latest value always is.
  const offset = series.length === 1 ? 1 : 0;
  const x = scaleLinear()
    .domain([0, last])
    .range([box.x, box.x + box.width]);
  const y = scaleLinear()
    .domain(valueDomain(values))
    .range([box.y + box.height, box.y]);
  const points: Plotted[] = series.map((point, index) => ({
    x: x(index + offset),
    y: point.value === null ? null : y(point.value),
  }));
  const crossesZero = Math.min(...values) < 0 && Math.max(...values) > 0;
  return { points, zeroY: crossesZero ? y(0) : null };
}

const round = (value: number) => Math.round(value * 100) / 100;

function isolated(points: readonly Plotted[], index: number): boolean {
  return points[index - 1]?.y == null && points[index + 1]?.y == null;
}

/** Area and line through every run of two or more consecutive values; nothing when there is none. */
function paths(points: readonly Plotted[], box: Box, colors: SparklineColors): XmlElement[] {
  if (!points.some((p, i) => p.y !== null && points[i + 1]?.y != null)) return [];
  // Isolated values would be zero-length subpaths; they are drawn as dots instead.
  const defined = (p: Plotted, i: number) => p.y !== null && !isolated(points, i);
  const lineGen = line<Plotted>()
    .defined(defined)
    .x((p) => p.x)
    .y((p) => p.y as number)
    .curve(curveMonotoneX)
    .digits(2);
  const areaGen = area<Plotted>()
    .defined(defined)
    .x((p) => p.x)
    .y0(box.y + box.height)
    .y1((p) => p.y as number)
    .curve(curveMonotoneX)
    .digits(2);
  return [
    el('path', { class: 'spark-area', d: areaGen(points) ?? '', fill: colors.area, 'fill-opacity': 0.16 }),
    el('path', {
      class: 'spark-line',
      d: lineGen(points) ?? '',
      fill: 'none',
      stroke: colors.line,
      'stroke-width': 2,
      'stroke-linejoin': 'round',
      'stroke-linecap': 'round',
    }),
  ];
}

/** A small dot for each isolated value, a larger one on the latest value. */
function markers(points: readonly Plotted[], colors: SparklineColors): XmlElement[] {
  const dots = points.flatMap((p, i) =>
    p.y !== null && i < points.length - 1 && isolated(points, i)
      ? [el('circle', { class: 'spark-dot', cx: round(p.x), cy: round(p.y), r: 2, fill: colors.line })]
      : [],
  );
  const latest = points.at(-1);
  if (latest?.y == null) return dots;
  const stroke = { stroke: colors.background, 'stroke-width': 1.5 };
  const cx = round(latest.x);
  const cy = round(latest.y);
  return [...dots, el('circle', { class: 'spark-latest', cx, cy, r: 3.5, fill: colors.line, ...stroke })];
}

/** The sparkline as an SVG group; pure, deterministic output for a given series and box. */
export function sparkline(series: readonly SeriesPoint[], box: Box, colors: SparklineColors): XmlElement {
  const { points, zeroY } = plot(series, box);
  const zeroLine =
    zeroY === null
      ? null
      : el('line', {
          class: 'spark-zero',
          x1: box.x,
          x2: box.x + box.width,
          y1: round(zeroY),
          y2: round(zeroY),
          stroke: colors.zero,
          'stroke-width': 1,
          'stroke-dasharray': '3 3',
        });
  return el('g', { class: 'sparkline' }, zeroLine, ...paths(points, box, colors), ...markers(points, colors));
}
