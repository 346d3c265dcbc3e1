/**
 * `regdata ingest fred --vintages`: every ALFRED vintage of the series — the FRED API's observations
 * with `realtime_start=1776-07-04&realtime_end=9999-12-31` (UPSTREAM.md §2.1), or `--from` files of
 * that JSON. The real-time periods go to `macro_vintages` (for `as_of`); the values published today
 * (periods ending 9999-12-31) are the series' observations, as a plain load would store them. A load
 * replaces the series it contains in both tables. ALFRED is API-only: without FRED_API_KEY, --from.
 */
import { IngestError } from '../core/errors.js';
import type { Stager } from '../core/staging.js';
import type { IngestContext } from '../core/types.js';
import { currentObservations, type ParseCounts, parseAlfredJson } from './fred-parse.js';
import { decodeText } from './records.js';

export const ALL_VINTAGES = 'realtime_start=1776-07-04&realtime_end=9999-12-31';

type AlfredPage = Parameters<typeof parseAlfredJson>[0] & { count?: number };

export interface VintageStagers {
  vintages: Stager<'macro_vintages'>;
}

/** Stages one series' periods; returns its current observations and any title/units the input had. */
async function stagePeriods(
  ctx: IngestContext,
  stager: Stager<'macro_vintages'>,
  parsed: ReturnType<typeof parseAlfredJson>,
) {
  for (const period of parsed.periods) {
    ctx.tally.read++;
    await stager.add({
      series_id: parsed.id,
      date: period.date,
      realtime_start: period.realtimeStart,
      realtime_end: period.realtimeEnd,
      value: period.value,
    });
  }
  return {
    id: parsed.id,
    title: parsed.title,
    units: parsed.units,
    observations: currentObservations(parsed.periods),
  };
}

function account(ctx: IngestContext, counts: ParseCounts) {
  for (const problem of counts.invalid) ctx.tally.reject(problem.replace(/^[^:]*: /, ''));
  ctx.tally.read += counts.invalid.length;
  counts.invalid = [];
  counts.missing = 0;
}

/** The series of the `--from` ALFRED JSON files, staged; yields each series' current values. */
export async function* vintagesFromFiles(ctx: IngestContext, stager: Stager<'macro_vintages'>) {
  const explicit = ctx.options.series?.length === 1 ? ctx.options.series[0]! : null;
  const counts: ParseCounts = { missing: 0, invalid: [] };
  for (const location of ctx.options.from) {
    let json: AlfredPage;
    try {
      json = JSON.parse(decodeText(await ctx.readInput(location))) as AlfredPage;
    } catch (error) {
      throw new IngestError(
        `${location}: --vintages reads ALFRED JSON (FRED observations with real-time periods): ${(error as Error).message}`,
      );
    }
    const parsed = parseAlfredJson(json, location, explicit, counts);
    account(ctx, counts);
    yield { ...(await stagePeriods(ctx, stager, parsed)), meta: {} };
  }
}

/** Every vintage of each series from the FRED API (paged), staged; yields each series' current values. */
export async function* vintagesFromApi(
  ctx: IngestContext,
  stager: Stager<'macro_vintages'>,
  ids: readonly string[],
) {
  const key = ctx.config.fredApiKey;
  if (!key)
    throw new IngestError(
      '--vintages needs FRED_API_KEY (ALFRED real-time periods are only in the FRED API), or --from ALFRED JSON files',
    );
  const base = ctx.config.fredApiUrl.replace(/\/+$/, '');
  ctx.setUpstream(`${base}/series/observations?${ALL_VINTAGES}`);
  const counts: ParseCounts = { missing: 0, invalid: [] };
  for (const id of ids) {
    const common = `series_id=${encodeURIComponent(id)}&api_key=${encodeURIComponent(key)}&file_type=json`;
    const meta = await ctx.fetcher.getJson<{ seriess?: Record<string, string>[] }>(
      `${base}/series?${common}`,
    );
    const observations: NonNullable<AlfredPage['observations']> = [];
    for (let offset = 0; ; ) {
      const page = await ctx.fetcher.getJson<AlfredPage>(
        `${base}/series/observations?${common}&${ALL_VINTAGES}&offset=${offset}`,
      );
      if (!Array.isArray(page.observations))
        throw new IngestError(`FRED ${id}: response has no observations`);
      observations.push(...page.observations);
      offset += page.observations.length;
      if (page.observations.length === 0 || offset >= (page.count ?? 0)) break;
    }
    const parsed = parseAlfredJson({ id, observations }, id, id, counts);
    account(ctx, counts);
    yield { ...(await stagePeriods(ctx, stager, parsed)), meta: meta.seriess?.[0] ?? {} };
  }
}
