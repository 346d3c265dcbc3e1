/**
 * Demo institutions: active ones in every state and territory with log-normal total assets (the
 * largest ≈ 3.5 billion thousand USD, like the largest real bank), the real charter-class mix,
 * ~80 % with a holding company; and inactive ones (merged, failed or closed) for `active=false`.
 */
import type { Insertable } from 'kysely';
import { searchKey } from '../../db/search.js';
import type { InstitutionsTable } from '../../db/tables.js';
import type { DemoScale } from '../types.js';
import { citiesOf, STATE_CODES, STATE_WEIGHTS } from './geography.js';
import { charteredName, holdingCompanyName } from './names.js';
import { type Random, round } from './random.js';

export type InstitutionRow = Insertable<InstitutionsTable> & { cert: number; asset_size: number | null };

export interface InstitutionCounts {
  readonly active: number;
  readonly inactive: number;
}

export const INSTITUTION_COUNTS: Record<DemoScale, InstitutionCounts> = {
  small: { active: 4500, inactive: 1500 },
  full: { active: 4500, inactive: 22_500 },
};

/** Charter classes of active institutions, weighted like the real population. */
const CHARTER_CLASSES = ['NM', 'N', 'SM', 'SB', 'SL', 'SI', 'OI'] as const;
const CHARTER_WEIGHTS = [55, 16, 17, 6, 3.5, 2, 0.5];

const LARGEST_ASSETS = 3_500_000_000;
/** The top ranks follow a power law from LARGEST_ASSETS, as the real size distribution does. */
const TAIL_RANKS = 30;

/** A day in [fromYear, toYear]; in the last year no later than `lastMonth`. */
function randomDate(random: Random, fromYear: number, toYear: number, lastMonth = 12): string {
  const year = random.int(fromYear, Math.max(fromYear, toYear));
  const month = random.int(1, year === toYear ? lastMonth : 12);
  const day = random.int(1, 28);
  return `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

function establishedYear(random: Random): number {
  const era = random.next();
  if (era < 0.65) return random.int(1855, 1949);
  if (era < 0.93) return random.int(1950, 2007);
  return random.int(2008, 2022);
}

/** Active asset sizes: log-normal body, power-law top so the largest is ≈ LARGEST_ASSETS. */
function activeAssetSizes(random: Random, count: number): number[] {
  const sizes = Array.from({ length: count }, () => random.logNormal(12.6, 1.45));
  const order = sizes.map((_, i) => i).sort((a, b) => (sizes[b] as number) - (sizes[a] as number));
  order.slice(0, TAIL_RANKS).forEach((index, rank) => {
    const tail = LARGEST_ASSETS * (rank + 1) ** -1.4 * (rank === 0 ? 1 : random.uniform(0.9, 1.1));
    sizes[index] = Math.max(sizes[index] as number, tail);
  });
  return sizes.map((size) => Math.max(1_000, Math.round(size)));
}

function baseInstitution(random: Random, cert: number, active: boolean) {
  const state = random.weighted(STATE_CODES, STATE_WEIGHTS);
  const city = random.pick(citiesOf(state));
  const charter = active
    ? random.weighted(CHARTER_CLASSES, CHARTER_WEIGHTS)
    : random.weighted(CHARTER_CLASSES, [45, 20, 10, 8, 14, 3, 0.3]);
  const name = charteredName(random, state, city, charter);
  const slug = searchKey(name).replace(/[^a-z0-9]+/g, '');
  return {
    cert,
    name,
    search_name: searchKey(name),
    city,
    state,
    zip: null,
    charter_class: charter,
    holding_company: random.chance(0.8) ? holdingCompanyName(random, name) : null,
    rssd_id: 1_000_000 + cert * 7 + random.int(0, 6),
    website: random.chance(0.6) ? `https://www.${slug.slice(0, 24)}.com` : null,
  };
}

/** Distinct certificate numbers, shuffled: institutions take the first ones, failures the rest. */
export function certificatePool(random: Random, scale: DemoScale): number[] {
  const size = scale === 'full' ? 99_999 : 59_999;
  return random.shuffle(Array.from({ length: size }, (_, i) => i + 1));
}

export function generateInstitutions(
  random: Random,
  counts: InstitutionCounts,
  certs: readonly number[],
): InstitutionRow[] {
  const sizes = activeAssetSizes(random, counts.active);
  const rows: InstitutionRow[] = [];
  for (let i = 0; i < counts.active; i++) {
    const base = baseInstitution(random, certs[i] as number, true);
    const founded = establishedYear(random);
    rows.push({
      ...base,
      asset_size: sizes[i] as number,
      established: random.chance(0.01) ? null : randomDate(random, founded, founded),
      active: 1,
      inactive_date: null,
    });
  }
  for (let i = 0; i < counts.inactive; i++) {
    const base = baseInstitution(random, certs[counts.active + i] as number, false);
    // A quarter left after 2000 (they have financials at full scale), the rest earlier.
    const inactiveYear = random.chance(0.25) ? random.int(2000, 2026) : random.int(1934, 1999);
    const inactiveDate = randomDate(random, inactiveYear, inactiveYear, inactiveYear === 2026 ? 9 : 12);
    rows.push({
      ...base,
      asset_size: round(random.logNormal(11.3, 1.4), 0),
      established: random.chance(0.03) ? null : randomDate(random, 1850, Math.max(1850, inactiveYear - 2)),
      active: 0,
      inactive_date: inactiveDate,
    });
  }
  return withHoldingCompanyRssd(rows);
}

/**
 * Holding companies get RSSD ids in order of first appearance (banks sharing a parent's name share
 * its id), from 3,000,000 so they never collide with bank RSSDs. No random draw.
 */
function withHoldingCompanyRssd(rows: InstitutionRow[]): InstitutionRow[] {
  const ids = new Map<string, number>();
  for (const row of rows) {
    const name = row.holding_company;
    if (name == null) {
      row.holding_company_rssd = null;
      continue;
    }
    if (!ids.has(name)) ids.set(name, 3_000_000 + ids.size);
    row.holding_company_rssd = ids.get(name) as number;
  }
  return rows;
}
