/** SPEC §5 asset-size bands, by total assets (thousands of USD) at the report date. */

export const SIZE_BANDS = [
  { band: 'lt100m', below: 100_000 },
  { band: '100m-300m', below: 300_000 },
  { band: '300m-1b', below: 1_000_000 },
  { band: '1b-3b', below: 3_000_000 },
  { band: '3b-10b', below: 10_000_000 },
  { band: '10b-100b', below: 100_000_000 },
  { band: 'gte100b', below: Number.POSITIVE_INFINITY },
] as const;

export type SizeBand = (typeof SIZE_BANDS)[number]['band'];

export const SIZE_BAND_NAMES: readonly SizeBand[] = SIZE_BANDS.map((b) => b.band);

export function sizeBandOf(totalAssets: number | null): SizeBand | null {
  if (totalAssets === null) return null;
  return SIZE_BANDS.find((b) => totalAssets < b.below)!.band;
}

/** The band's total-assets range [from, below), for SQL range conditions. */
export function bandRange(band: SizeBand): { from: number; below: number } {
  const index = SIZE_BANDS.findIndex((b) => b.band === band);
  return {
    from: index === 0 ? Number.NEGATIVE_INFINITY : SIZE_BANDS[index - 1]!.below,
    below: SIZE_BANDS[index]!.below,
  };
}
