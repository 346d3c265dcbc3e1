/**
 * `fred`: the 12 catalogue series (or `--series`, any FRED series: all are served), their metadata
 * and observations. With FRED_API_KEY the JSON API; without it the keyless fredgraph CSV; with
 * `--from` FRED JSON or either fredgraph.csv generation. `--vintages`: ALFRED real-time periods too
 * (fred-vintages.ts). A load replaces the series it contains, all of their observations.
 */

import { findMacroSeries, MACRO_SERIES_IDS } from '../../macro/catalog.js';
import { IngestError } from '../core/errors.js';

import type { Stager } from '../core/staging.js';
import type { IngestContext, IngestSource } from '../core/types.js';
import {
  inferFrequency,
  isoLastUpdated,
  type ParseCounts,
  type ParsedSeries,
  parseFredCsv,
  parseFredInput,
  parseFredJson,
} from './fred-parse.js';

import { vintagesFromApi, vintagesFromFiles } from './fred-vintages.js';
import { decodeText } from './records.js';

interface SeriesMeta {
  title?: string;
  units?: string;
  frequency?: string;
  seasonal_adjustment?: string;
  last_updated?: string;
}

interface Stagers {
  series: Stager<'macro_series'>;
  observations: Stager<'macro_observations'>;
}

/** `countRead`: false when the rows were counted as vintage periods already. */
async function stageSeries(
  ctx: IngestContext,
  stagers: Stagers,
  parsed: ParsedSeries,
  fred: SeriesMeta = {},
  countRead = true,
) {
  const known = findMacroSeries(parsed.id);
  if (!known)
    ctx.log(`fred: ${parsed.id} is not one of the 12 catalogue series; stored and served as loaded`);
  if (parsed.observations.length === 0) {
    // The series counts as one row read, and rejected.
    ctx.tally.read++;
    ctx.tally.reject(`${parsed.id}: no observations`);
    return;
  }
  await stagers.series.add({
    id: parsed.id,
    // The catalogue's title is the one the API shows; FRED's units/adjustment/last update win.
    title: known?.title ?? fred.title ?? parsed.title ?? parsed.id,
    units: fred.units ?? known?.units ?? parsed.units,
    frequency: known?.frequency ?? fred.frequency ?? inferFrequency(parsed.observations),
    seasonal_adjustment: fred.seasonal_adjustment ?? known?.seasonalAdjustment ?? null,
    last_updated: isoLastUpdated(fred.last_updated),
  });
  for (const observation of parsed.observations) {
    if (countRead) ctx.tally.read++;
    await stagers.observations.add({
      series_id: parsed.id,
      date: observation.date,
      value: observation.value,
    });
  }
}

function account(ctx: IngestContext, counts: ParseCounts) {
  for (let i = 0; i < counts.missing; i++) ctx.tally.skip("missing value ('.' or empty): omitted");
  for (const problem of counts.invalid) ctx.tally.reject(problem.replace(/^[^:]*: /, ''));
  ctx.tally.read += counts.missing + counts.invalid.length;
  counts.missing = 0;
  counts.invalid = [];
}

function since(ctx: IngestContext) {
  return ctx.options.since ?? null;
}

async function fromApi(ctx: IngestContext, stagers: Stagers, ids: readonly string[], key: string) {
  const base = ctx.config.fredApiUrl.replace(/\/+$/, '');
  const counts: ParseCounts = { missing: 0, invalid: [] };
  ctx.setUpstream(`${base}/series/observations`);
  for (const [i, id] of ids.entries()) {
    const common = `series_id=${encodeURIComponent(id)}&api_key=${encodeURIComponent(key)}&file_type=json`;
    const meta = await ctx.fetcher.getJson<{ seriess?: SeriesMeta[] }>(`${base}/series?${common}`);
    const observations: { date?: unknown; value?: unknown }[] = [];
    for (let offset = 0; ; ) {
      const start = since(ctx) ? `&observation_start=${since(ctx)}` : '';
      const page = await ctx.fetcher.getJson<{
        count?: number;
        observations?: { date?: unknown; value?: unknown }[];
      }>(`${base}/series/observations?${common}${start}&offset=${offset}`);
      if (!Array.isArray(page.observations))
        throw new IngestError(`FRED ${id}: response has no observations`);
      observations.push(...page.observations);
      offset += page.observations.length;
      if (page.observations.length === 0 || offset >= (page.count ?? 0)) break;
    }
    const parsed = parseFredJson({ id, observations }, id, id, counts);
    account(ctx, counts);
    await stageSeries(ctx, stagers, parsed, meta.seriess?.[0] ?? {});
    ctx.progress.update(i + 1);
  }
}

async function fromGraphCsv(ctx: IngestContext, stagers: Stagers, ids: readonly string[]) {
  const counts: ParseCounts = { missing: 0, invalid: [] };
  ctx.setUpstream(ctx.config.fredGraphUrl);
  for (const [i, id] of ids.entries()) {
    const start = since(ctx) ? `&cosd=${since(ctx)}` : '';
    const bytes = await ctx.fetcher.get(`${ctx.config.fredGraphUrl}?id=${encodeURIComponent(id)}${start}`);
    const parsed = parseFredCsv(decodeText(bytes), counts).find((s) => s.id === id);
    if (!parsed) throw new IngestError(`fredgraph.csv for ${id} has no ${id} column`);
    account(ctx, counts);
    await stageSeries(ctx, stagers, parsed);
    ctx.progress.update(i + 1);
  }
}

export const fred: IngestSource = {
  name: 'fred',
  group: 'banking',
  description: 'FRED macro series (the 12 of the catalogue): API with FRED_API_KEY, else fredgraph.csv',
  async run(ctx) {
    const stagers: Stagers = {
      series: await ctx.stage({
        table: 'macro_series',
        columns: ['id', 'title', 'units', 'frequency', 'seasonal_adjustment', 'last_updated'],
        key: ['id'],
        replace: { matching: 'id' },
      }),
      observations: await ctx.stage({
        table: 'macro_observations',
        columns: ['series_id', 'date', 'value'],
        key: ['series_id', 'date'],
        replace: { matching: 'series_id' },
      }),
    };
    if (ctx.options.vintages) {
      const vintages = await ctx.stage({
        table: 'macro_vintages',
        columns: ['series_id', 'date', 'realtime_start', 'realtime_end', 'value'],
        key: ['series_id', 'date', 'realtime_start'],
        replace: { matching: 'series_id' },
      });
      const ids = ctx.options.series ?? MACRO_SERIES_IDS;
      const series =
        ctx.options.from.length > 0 ? vintagesFromFiles(ctx, vintages) : vintagesFromApi(ctx, vintages, ids);
      ctx.progress.start('series', ctx.options.from.length > 0 ? ctx.options.from.length : ids.length);
      let done = 0;
      for await (const current of series) {
        await stageSeries(ctx, stagers, current, current.meta, false);
        ctx.progress.update(++done);
      }
      return;
    }
    const explicit = ctx.options.series?.length === 1 ? ctx.options.series[0]! : null;
    if (ctx.options.from.length > 0) {
      const counts: ParseCounts = { missing: 0, invalid: [] };
      ctx.progress.start('files', ctx.options.from.length);
      for (const [i, location] of ctx.options.from.entries()) {
        for (const parsed of parseFredInput(await ctx.readInput(location), location, explicit, counts)) {
          account(ctx, counts);
          await stageSeries(ctx, stagers, parsed);
        }
        ctx.progress.update(i + 1);
      }
      return;
    }
    const ids = ctx.options.series ?? MACRO_SERIES_IDS;
    ctx.progress.start('series', ids.length);
    if (ctx.config.fredApiKey) await fromApi(ctx, stagers, ids, ctx.config.fredApiKey);
    else await fromGraphCsv(ctx, stagers, ids);
  },
};
