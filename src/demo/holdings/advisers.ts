/** Demo Form ADV advisers: CRD, SEC number, names, places, log-normal AUM (USD), staff and clients. */
import type { Insertable } from 'kysely';
import { searchKey } from '../../db/search.js';
import type { AdvisersTable } from '../../holdings/tables.js';
import type { DemoManager } from './managers.js';
import { FIRM_SUFFIXES, FIRM_WORDS, firmName, ISSUER_WORDS, SURNAMES, US_PLACES } from './names.js';
import type { Rng } from './random.js';

const STREETS = [
  'Main Street',
  'Park Avenue',
  'Market Street',
  'Broad Street',
  'Elm Street',
  'Lake Shore Drive',
];

function split(rng: Rng, total: number, parts: number): number[] {
  const weights = Array.from({ length: parts }, () => rng.next() ** 2);
  const sum = weights.reduce((a, b) => a + b, 0) || 1;
  const counts = weights.map((w) => Math.floor((w / sum) * total));
  counts[0] = (counts[0] as number) + total - counts.reduce((a, b) => a + b, 0);
  return counts;
}

function adviser(
  rng: Rng,
  crd: number,
  secNumber: string,
  manager: DemoManager | undefined,
): Insertable<AdvisersTable> {
  const name =
    manager?.name ??
    firmName({
      surname: rng.pick(SURNAMES),
      second: rng.chance(0.4) ? rng.pick(ISSUER_WORDS) : '',
      firm: rng.pick(FIRM_WORDS),
      suffix: '',
    });
  const legal = manager ? manager.name : `${name} ${rng.pick(FIRM_SUFFIXES) || 'LLC'}`.trim();
  const [city, state] = manager?.state ? [manager.city, manager.state] : rng.pick(US_PLACES);
  const aum = rng.chance(0.02) ? null : Math.round(rng.logNormal(350e6, 1.7));
  const clients = Math.max(1, Math.round(rng.logNormal(120, 1.5)));
  const [individuals, hnw, companies, pooled, pensions, other] = split(rng, clients, 6);
  const privateFunds = rng.chance(0.3) ? rng.int(1, 25) : 0;
  const hedge = privateFunds > 0 ? rng.int(0, privateFunds) : 0;
  const slug = name.toLowerCase().replace(/[^a-z0-9]+/g, '');
  return {
    crd,
    sec_number: secNumber,
    cik: manager?.cik ?? null,
    name,
    search_name: searchKey(name),
    legal_name: legal,
    search_legal_name: searchKey(legal),
    address: `${rng.int(1, 2999)} ${rng.pick(STREETS)}`,
    city,
    state,
    country: 'United States',
    phone: `${rng.int(201, 989)}-555-${String(rng.int(0, 9999)).padStart(4, '0')}`,
    website: rng.chance(0.75) ? `https://www.${slug}.com` : null,
    aum,
    discretionary_aum: aum === null ? null : Math.round(aum * (0.8 + rng.next() * 0.2)),
    employees: Math.max(1, Math.round(rng.logNormal(12, 1.2))),
    clients,
    clients_individuals: individuals ?? 0,
    clients_high_net_worth: hnw ?? 0,
    clients_investment_companies: companies ?? 0,
    clients_pooled_vehicles: pooled ?? 0,
    clients_pension_plans: pensions ?? 0,
    clients_other: other ?? 0,
    private_funds: privateFunds,
    hedge_funds: hedge,
    private_equity_funds: privateFunds - hedge,
    registration_status: rng.chance(0.97) ? 'Approved' : rng.pick(['Pending', 'Withdrawn']),
    latest_filing_date: `2026-0${rng.int(1, 9)}-${String(rng.int(1, 28)).padStart(2, '0')}`,
  };
}

/** `count` advisers; the first `sharedCik` reuse a manager's CIK and name (they also file 13F). */
export function generateAdvisers(
  rng: Rng,
  count: number,
  managers: readonly DemoManager[],
  sharedCik: number,
) {
  const crds = new Set<number>();
  const secNumbers = new Set<string>();
  const advisers: Insertable<AdvisersTable>[] = [];
  for (let i = 0; i < count; i++) {
    let crd: number;
    do crd = rng.int(100_000, 399_999);
    while (crds.has(crd));
    crds.add(crd);
    let sec: string;
    do sec = `801-${rng.int(10_000, 99_999)}`;
    while (secNumbers.has(sec));
    secNumbers.add(sec);
    advisers.push(adviser(rng, crd, sec, i < sharedCik ? managers[i * 3] : undefined));
  }
  return advisers;
}
