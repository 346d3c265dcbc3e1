/**
 * Institution and holding-company names shaped like real ones, including `&`, apostrophes,
 * quotes-free punctuation and accented letters (so search, escaping and sorting get exercised).
 */
import type { Random } from './random.js';

const SURNAMES = [
  'Adams',
  'Baker',
  'Bennett',
  'Carter',
  'Dawson',
  'Ellis',
  'Fischer',
  'Garza',
  'Harper',
  'Hughes',
  'Jensen',
  'Keller',
  'Lindqvist',
  'Morgan',
  'Nelson',
  "O'Brien",
  "O'Neill",
  'Parker',
  'Quinn',
  'Reyes',
  'Schmidt',
  'Sullivan',
  'Thompson',
  'Vogel',
  'Walker',
  'Young',
  'Núñez',
  'Gómez',
  'Thériault',
  'Müller',
  'Peña',
  'Léger',
  'Østby',
  'Sørensen',
  'Dvořák',
  'Kowalski',
  'Nguyen',
  'Yamamoto',
  'MacLeod',
  "D'Angelo",
] as const;

const PLACE_WORDS = [
  'Prairie',
  'Valley',
  'River',
  'Lakeside',
  'Summit',
  'Heartland',
  'Pioneer',
  'Frontier',
  'Harbor',
  'Granite',
  'Cedar',
  'Magnolia',
  'Bluegrass',
  'Cornerstone',
  'Keystone',
  'Evergreen',
  'Sunflower',
  'Red River',
  'Big Sky',
  'Peoples',
  'Citizens',
  'Farmers',
  'Merchants',
  'Home',
  'Security',
  'Guaranty',
  'Liberty',
  'Union',
  'Heritage',
] as const;

const KINDS = [
  'Bank',
  'State Bank',
  'Savings Bank',
  'Bank & Trust',
  'Trust Company',
  'Community Bank',
] as const;

const HOLDING_SUFFIXES = [
  'Bancshares, Inc.',
  'Bancorp',
  'Bancorporation',
  'Financial Corporation',
  'Holding Company',
  'Financial Group, Inc.',
] as const;

const SPANISH = ['Banco Cooperativo', 'Banco de Ahorro', 'Banco Popular', 'Banco Santander'] as const;
const FRENCH = ['Caisse Populaire', 'Banque Acadienne', 'Société Générale Américaine'] as const;

type NamePattern = (random: Random, city: string) => string;

const PATTERNS: readonly [NamePattern, number][] = [
  [(r) => `${r.pick(PLACE_WORDS)} ${r.pick(KINDS)}`, 30],
  [(_r, city) => `First National Bank of ${city}`, 10],
  [(r, city) => `${city} ${r.pick(['State Bank', 'Savings Bank', 'National Bank', 'Bank & Trust'])}`, 18],
  [
    (r) =>
      `${r.pick(['Farmers', 'Citizens', 'Merchants', 'Planters'])} & ${r.pick(['Merchants', 'Mechanics', 'Farmers', 'Traders'])} Bank`,
    10,
  ],
  [(r) => `${r.pick(SURNAMES)} & ${r.pick(SURNAMES)} Bank`, 4],
  [
    (r) => `${r.pick(["Farmers'", "Peoples'", "Citizens'", "Workingmen's", "Mechanics'"])} ${r.pick(KINDS)}`,
    8,
  ],
  [(r) => `${r.pick(SURNAMES)} ${r.pick(['Savings Bank', 'State Bank', 'Trust Company'])}`, 10],
  [(r, city) => `The ${r.pick(['First', 'Second', 'Third', 'Security'])} National Bank of ${city}`, 6],
  [
    (r) =>
      `${r.pick(PLACE_WORDS)} ${r.pick(['Federal Savings & Loan', 'Savings and Loan Association', 'Building & Loan'])}`,
    4,
  ],
];

const PATTERN_FUNCTIONS = PATTERNS.map(([pattern]) => pattern);
const PATTERN_WEIGHTS = PATTERNS.map(([, weight]) => weight);

/** Words only savings institutions (SB, SI, SL) carry. */
const THRIFT_WORDS = /Savings and Loan|Savings & Loan|Building & Loan/;

/** Insured U.S. branches of foreign banks (charter class OI). */
const FOREIGN_BANKS = [
  'Banco de la Nación Argentina',
  'Banco do Brasil',
  'Société Générale',
  'Bank of Taiwan',
  'Mega International Commercial Bank',
  'Bank Hapoalim',
  "Banca d'Italia Commerciale",
] as const;

const NATIONAL_PATTERNS: readonly NamePattern[] = [
  (_r, city) => `First National Bank of ${city}`,
  (_r, city) => `${city} National Bank`,
  (r, city) => `The ${r.pick(['First', 'Second', 'Third', 'Security', 'Citizens'])} National Bank of ${city}`,
  (r) => `${r.pick(PLACE_WORDS)} National Bank`,
];

/**
 * A name that fits the charter: national banks (N) are mostly called "… National Bank …"; no other
 * charter is.
 */
export function charteredName(random: Random, state: string, city: string, charter: string): string {
  if (charter === 'N' && random.chance(0.7)) return random.pick(NATIONAL_PATTERNS)(random, city);
  if (charter === 'OI') return `${random.pick(FOREIGN_BANKS)}, ${city} Branch`;
  const thrift = charter === 'SL' || charter === 'SI' || charter === 'SB';
  const fits = (name: string) => !name.includes('National') && (thrift || !THRIFT_WORDS.test(name));
  let name = institutionName(random, state, city);
  for (let tries = 0; tries < 20 && !fits(name); tries++) name = institutionName(random, state, city);
  return fits(name) ? name : `${city} Community Bank`;
}

/** A bank name; territories and a few French- or Spanish-heritage places get local names. */
export function institutionName(random: Random, state: string, city: string): string {
  if (state === 'PR' && random.chance(0.7)) return `${random.pick(SPANISH)} de ${city}`;
  if ((state === 'LA' || state === 'ME' || state === 'NH') && random.chance(0.08)) {
    return `${random.pick(FRENCH)} de ${city}`;
  }
  return random.weighted(PATTERN_FUNCTIONS, PATTERN_WEIGHTS)(random, city);
}

/** A holding company named after the bank's distinctive part. */
export function holdingCompanyName(random: Random, bankName: string): string {
  const stem = bankName
    .replace(/^The /, '')
    .replace(
      /\b(National Bank of|State Bank|Savings Bank|Bank & Trust|Trust Company|Community Bank|Bank)\b.*$/,
      '',
    )
    .trim();
  return `${stem || random.pick(PLACE_WORDS)} ${random.pick(HOLDING_SUFFIXES)}`;
}

/** An acquirer name for failure records. */
export function acquirerName(random: Random, city: string): string {
  return random.weighted(PATTERN_FUNCTIONS, PATTERN_WEIGHTS)(random, city);
}
