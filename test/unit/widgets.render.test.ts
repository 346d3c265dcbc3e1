/** render(props) as input/output tables, SVG file snapshots, and the hostile-name proof. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { MetricKey } from '../../src/widgets/metrics.js';
import { errorPage, widgetPage } from '../../src/widgets/page.js';
import { render, renderError, type WidgetProps } from '../../src/widgets/render.js';
import { quarterEnd, quarterIndex, type SeriesPoint } from '../../src/widgets/series.js';
import type { Theme } from '../../src/widgets/theme.js';
import { byClass, byName, inlineSvg, type Node, one, parseXml } from './widgets.parse.js';

const QUARTERS = ['2025-03-31', '2025-06-30', '2025-09-30', '2025-12-31', '2026-03-31', '2026-06-30'];

/** Values for the last quarters up to 2026-06-30, oldest first. */
function series(...values: (number | null)[]): SeriesPoint[] {
  const dates = QUARTERS.slice(-values.length);
  return values.map((value, i) => ({ date: dates[i] as string, value }));
}

function card(
  values: (number | null)[],
  metric: MetricKey = 'roa',
  name = 'Harbor Bank & Trust',
  theme: Theme = 'dark',
) {
  const svg = parseXml(render({ name, metric, theme, series: series(...values) }));
  return svg.children[0] as Node;
}

/** Distinct y coordinates along a d3 path (`M x,y C x1,y1,x2,y2,x,y …`). */
function pathYs(d: string): number[] {
  const numbers = d.match(/-?\d+(\.\d+)?/g)?.map(Number) ?? [];
  return [...new Set(numbers.filter((_, i) => i % 2 === 1))];
}

describe('render(props): text of the card', () => {
  it.each([
    // case, values, metric, value, change, tone, sub
    ['one data point', [1.15], 'roa', '1.15%', '—', 'neutral', 'no prior quarter'],
    ['a rise in ROA is good', [1, 1.15], 'roa', '1.15%', '▲ 0.15 pp', 'good', 'vs Q1 2026'],
    ['a fall in ROA is bad', [1.15, 1], 'roa', '1.00%', '▼ 0.15 pp', 'bad', 'vs Q1 2026'],
    [
      'a rise in noncurrent loans is bad',
      [0.5, 0.75],
      'npl_ratio',
      '0.75%',
      '▲ 0.25 pp',
      'bad',
      'vs Q1 2026',
    ],
    [
      'a fall in efficiency ratio is good',
      [60, 58.5],
      'efficiency_ratio',
      '58.50%',
      '▼ 1.50 pp',
      'good',
      'vs Q1 2026',
    ],
    [
      'loans to deposits is neutral',
      [80, 85],
      'loan_to_deposit',
      '85.00%',
      '▲ 5.00 pp',
      'neutral',
      'vs Q1 2026',
    ],
    ['flat series', [10, 10, 10], 'equity_ratio', '10.00%', 'unchanged', 'neutral', 'vs Q1 2026'],
    ['negative values', [-0.5, -1.2], 'roa', '-1.20%', '▼ 0.70 pp', 'bad', 'vs Q1 2026'],
    ['previous quarter null', [1, 2, null, 3], 'roa', '3.00%', '—', 'neutral', 'vs Q1 2026 n/a'],
    ['float noise rounds to pp', [1.1, 1.15], 'roe', '1.15%', '▲ 0.05 pp', 'good', 'vs Q1 2026'],
    ['tiny change is unchanged', [1.001, 1.004], 'roa', '1.00%', 'unchanged', 'neutral', 'vs Q1 2026'],
    [
      'huge value stays short',
      [1, 2_500_000],
      'loan_to_deposit',
      '2.5M%',
      '▲ 2.5M pp',
      'neutral',
      'vs Q1 2026',
    ],
  ] as const)('%s', (_case, values, metric, value, change, tone, sub) => {
    const svg = card([...values], metric);
    expect(one(svg, 'value').text).toBe(value);
    expect(one(svg, 'change').text).toBe(change);
    expect(one(svg, 'change').attrs.class).toBe(`change change-${tone}`);
    expect(one(svg, 'change-sub').text).toBe(sub);
    expect(one(svg, 'date').text).toBe('2026-06-30');
  });

  it.each([
    ['roa', 'Return on assets'],
    ['roe', 'Return on equity'],
    ['efficiency_ratio', 'Efficiency ratio'],
    ['equity_ratio', 'Equity to assets'],
    ['npl_ratio', 'Noncurrent loans'],
    ['tier1_leverage', 'Tier 1 leverage'],
    ['loan_to_deposit', 'Loans to deposits'],
    ['charge_off_rate', 'Net charge-off rate'],
  ] as const)('labels %s as %s (SPEC table)', (metric, label) => {
    expect(one(card([1, 2], metric), 'label').text).toBe(label);
  });
});

describe('render(props): the sparkline', () => {
  it.each([
    // case, values, subpaths of the line, isolated dots, zero line
    ['one data point', [1.15], 0, 0, false],
    ['two points', [1, 2], 1, 0, false],
    ['flat series', [10, 10, 10, 10], 1, 0, false],
    ['all negative', [-1, -2, -1.5], 1, 0, false],
    ['crossing zero', [-1, 0.5, 1], 1, 0, true],
    ['null inside splits the line', [1, 2, null, 3, 4], 2, 0, false],
    ['isolated values become dots', [1, null, 2, null, 3], 0, 2, false],
    ['leading isolated value', [1, null, 2, 3], 1, 1, false],
  ] as const)('%s', (_case, values, subpaths, dots, zero) => {
    const svg = card([...values]);
    const line = byClass(svg, 'spark-line')[0];
    expect(line?.attrs.d?.match(/M/g)?.length ?? 0).toBe(subpaths);
    expect(byClass(svg, 'spark-area')).toHaveLength(subpaths > 0 ? 1 : 0);
    expect(byClass(svg, 'spark-dot')).toHaveLength(dots);
    expect(byClass(svg, 'spark-zero')).toHaveLength(zero ? 1 : 0);
    expect(byClass(svg, 'spark-latest')).toHaveLength(1);
  });

  it('draws a flat series as a horizontal line in the middle of the band', () => {
    const d = one(card([10, 10, 10, 10], 'equity_ratio'), 'spark-line').attrs.d as string;
    expect(pathYs(d)).toEqual([104]);
  });

  it('puts the latest value at the right edge, high values higher', () => {
    const svg = card([1, 3]);
    const latest = one(svg, 'spark-latest');
    expect(Number(latest.attrs.cx)).toBe(286);
    const ys = pathYs(one(svg, 'spark-line').attrs.d as string);
    expect(Math.min(...ys)).toBe(Number(latest.attrs.cy));
  });

  it('keeps every coordinate inside the card', () => {
    const svg = card([-50, 1e6, null, -1e6, 3, 0]);
    const numbers = (one(svg, 'spark-line').attrs.d as string).match(/-?\d+(\.\d+)?/g)?.map(Number) ?? [];
    expect(numbers.length).toBeGreaterThan(0);
    for (const n of numbers) expect(n >= 0 && n <= 300).toBe(true);
  });

  it('refuses a series that does not end in a reported value', () => {
    expect(() => render({ name: 'X', metric: 'roa', theme: 'dark', series: series(1, null) })).toThrow();
    expect(() => render({ name: 'X', metric: 'roa', theme: 'dark', series: [] })).toThrow();
  });
});

describe('render(props): names and accessibility', () => {
  it('truncates a very long name with an ellipsis and keeps it whole in <title> and aria-label', () => {
    const name = 'The First National Bank and Trust Company of the Greater Metropolitan Area of Springfield';
    const svg = card([1, 2], 'roa', name);
    const shown = one(svg, 'name').text;
    expect(shown.endsWith('…')).toBe(true);
    expect(name.startsWith(shown.slice(0, -1))).toBe(true);
    expect(byName(svg, 'title')[0]?.text).toBe(`${name} — Return on assets`);
    expect(svg.attrs['aria-label']).toContain(name);
    expect(svg.attrs.role).toBe('img');
  });

  it('speaks the value, date and change in the aria-label', () => {
    expect(card([1, 1.15]).attrs['aria-label']).toBe(
      'Return on assets of Harbor Bank & Trust: 1.15% on 2026-06-30, up 0.15 percentage points from the previous quarter. Sparkline of the last 2 quarters.',
    );
  });

  it('is pure: the same props give the same markup', () => {
    const props: WidgetProps = { name: 'A', metric: 'roa', theme: 'light', series: series(1, 2, 3) };
    expect(render(props)).toBe(render({ ...props, series: series(1, 2, 3) }));
  });
});

describe('hostile institution names', () => {
  const HOSTILE = '<script>alert(1)</script> & "Co"';

  it.each(['dark', 'light'] as const)('renders the name as text in the %s SVG', (theme) => {
    const xml = render({ name: HOSTILE, metric: 'roa', theme, series: series(1, 2) });
    const doc = parseXml(xml);
    expect(byName(doc, 'script')).toEqual([]);
    expect(one(doc, 'name').text).toBe(HOSTILE);
    expect(byName(doc, 'title')[0]?.text).toBe(`${HOSTILE} — Return on assets`);
    expect(xml).not.toContain('<script');
  });

  it('renders the name as text in the HTML page and its <title>', () => {
    const html = widgetPage({ name: HOSTILE, metric: 'roa', theme: 'dark', series: series(1, 2) });
    expect(html).not.toContain('<script');
    expect(html).toContain(
      '<title>&lt;script&gt;alert(1)&lt;/script&gt; &amp; "Co" — Return on assets</title>',
    );
    expect(one(inlineSvg(html), 'name').text).toBe(HOSTILE);
  });

  it('renders a hostile error detail as text', () => {
    const detail = `No data for ${HOSTILE}`;
    const doc = parseXml(renderError({ status: 404, title: 'Not found', detail, theme: 'dark' }));
    expect(byName(doc, 'script')).toEqual([]);
    expect(doc.children[0]?.attrs['aria-label']).toBe(`Not found: ${detail}`);
    expect(errorPage({ status: 404, title: 'Not found', detail, theme: 'light' })).not.toContain('<script');
  });
});

describe('SVG snapshots', () => {
  const history = [0.82, 0.91, null, 1.05, 0.97, 1.12];
  it.each(['dark', 'light'] as const)('ROA card, %s theme', async (theme) => {
    const svg = render({ name: 'Harbor Bank & Trust', metric: 'roa', theme, series: series(...history) });
    await expect(svg).toMatchFileSnapshot(`__snapshots__/widget-roa-${theme}.svg`);
  });

  it('single negative quarter with a long name', async () => {
    const name = 'The First National Bank and Trust Company of the Greater Metropolitan Area of Springfield';
    const svg = render({ name, metric: 'roa', theme: 'dark', series: series(-0.42) });
    await expect(svg).toMatchFileSnapshot('__snapshots__/widget-single-negative.svg');
  });

  it('error card', async () => {
    const svg = renderError({
      status: 400,
      title: 'Invalid parameter',
      detail:
        'metric must be one of: roa, roe, efficiency_ratio, equity_ratio, npl_ratio, tier1_leverage, loan_to_deposit, charge_off_rate',
      theme: 'light',
    });
    await expect(svg).toMatchFileSnapshot('__snapshots__/widget-error-400.svg');
  });
});

describe('render(props) on arbitrary input', () => {
  const value = fc.double({ min: -1e7, max: 1e7, noNaN: true });
  const input = fc.record({
    name: fc.string({ unit: 'binary', maxLength: 150 }),
    values: fc.tuple(fc.array(fc.option(value, { nil: null }), { maxLength: 19 }), value),
    theme: fc.constantFrom('dark' as const, 'light' as const),
    metric: fc.constantFrom('roa' as const, 'npl_ratio' as const, 'loan_to_deposit' as const),
  });

  it('always gives well-formed SVG with every coordinate inside the card', () => {
    fc.assert(
      fc.property(input, ({ name, values: [head, last], theme, metric }) => {
        const start = quarterIndex('2026-06-30') - head.length;
        const points = [...head, last].map((v, i) => ({ date: quarterEnd(start + i), value: v }));
        const doc = parseXml(render({ name, metric, theme, series: points }));
        expect(byName(doc, 'script')).toEqual([]);
        for (const node of [...byName(doc, 'circle'), ...byName(doc, 'text')]) {
          const x = Number(node.attrs.cx ?? node.attrs.x);
          const y = Number(node.attrs.cy ?? node.attrs.y);
          expect(x >= 0 && x <= 300 && y >= 0 && y <= 130).toBe(true);
        }
        const d = byClass(doc, 'spark-line')[0]?.attrs.d ?? '';
        expect(d).not.toMatch(/NaN|Infinity/);
        return true;
      }),
      { numRuns: 200 },
    );
  });
});
